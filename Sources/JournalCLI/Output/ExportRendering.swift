import ArgumentParser
import Foundation
import JournalKit

/// The formats `journal export` writes, entry by entry, oldest first.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    /// This project's JSON Lines: what `journal import` reads back.
    case jsonl
    /// A document a person reads: a heading per day, one per entry.
    case markdown

    /// What goes before the first entry.
    var header: String {
        switch self {
        case .jsonl: ""
        case .markdown: "# Journal\n"
        }
    }

    /// `entry` as the format writes it; `previous` is the entry written before it, if any (a
    /// new day starts a new heading).
    func render(_ entry: Entry, after previous: Entry?) -> String {
        switch self {
        case .jsonl:
            return JSONOutput.entry(entry).serialized + "\n"
        case .markdown:
            let day = String(EntryRendering.localDate(entry.date).prefix(10))
            let time = String(EntryRendering.localDate(entry.date).dropFirst(11))
            var text = ""
            if previous.map({ EntryRendering.localDate($0.date).prefix(10) }) != Substring(day) { text += "\n## \(day)\n" }
            text += "\n### \(time)\(entry.starred ? " ★" : "")\n\n"
            if !entry.tags.isEmpty { text += EntryRendering.tagList(entry.tags) + "\n\n" }
            return text + entry.text + (entry.text.hasSuffix("\n") ? "" : "\n")
        }
    }
}
