import Foundation
import JournalText
import TextReport

/// The formats a journal is exported in, oldest entry first (``ExportWriter``).
public enum ExportFormat: String, CaseIterable, Sendable {
    /// This project's JSON Lines: what `journal import` reads back.
    case jsonl
    /// jrnl's JSON export, for tools written for jrnl.
    case json
    /// jrnl's plain-text journal file, which jrnl opens as a journal.
    case txt
    /// A document a person reads: a heading per day, one per entry.
    case markdown
}

/// Writes entries in an ``ExportFormat``, a batch at a time: what goes before the first entry,
/// each entry, and what goes after the last (jrnl's JSON ends with its tag counts, gathered on
/// the way, so that nothing but the counts is held in memory).
///
/// ```swift
/// var writer = ExportWriter(.markdown)
/// var text = writer.header
/// try journal.forEachEntry { batch in for entry in batch { text += writer.write(entry) } }
/// text += writer.footer
/// ```
public struct ExportWriter: Sendable {
    /// The format written.
    public let format: ExportFormat
    private var previous: Entry?
    private var tagCounts: [String: Int] = [:]
    /// What the format could not keep, entry by entry, for the user to hear about.
    public private(set) var losses: [String] = []

    /// A writer of `format`.
    public init(_ format: ExportFormat) { self.format = format }

    /// What goes before the first entry.
    public var header: String {
        switch format {
        case .jsonl, .txt: ""
        case .json: "{\"entries\": ["
        case .markdown: "# Journal\n"
        }
    }

    /// `entry` as the format writes it.
    public mutating func write(_ entry: Entry) -> String {
        defer { previous = entry }
        switch format {
        case .jsonl:
            return entry.json.serialized + "\n"
        case .json:
            let tags = Self.jrnlTags(of: entry)
            for tag in tags { tagCounts[tag, default: 0] += 1 }
            let (title, body) = Self.titleAndBody(entry.text)
            let local = entry.date.localDayAndMinute
            let object = JSONValue.object([
                "title": .string(title), "body": .string(body), "date": .string(String(local.prefix(10))),
                "time": .string(String(local.dropFirst(11))), "tags": .array(tags.map(JSONValue.string)),
                "starred": .bool(entry.starred),
            ])
            return (previous == nil ? "\n  " : ",\n  ") + object.serialized
        case .txt:
            let (title, body) = Self.titleAndBody(entry.text)
            if !entry.starred, title.hasSuffix("*") {
                losses.append("p\(entry.id.number): its first line ends with *, which jrnl reads as a star")
            }
            let written = Set(Tags.names(inText: entry.text))
            let untold = entry.tags.filter { !written.contains($0.name) }
            if !untold.isEmpty {
                losses.append(
                    "p\(entry.id.number): jrnl's text keeps only the tags written in it, not \(Self.tagList(untold))")
            }
            if body.split(separator: "\n").contains(where: { JrnlText.header($0, timeZone: .current) != nil }) {
                losses.append("p\(entry.id.number): a line of it starts with a [date], where jrnl starts a new entry")
            }
            let date = entry.date.localJrnlTime
            return (previous == nil ? "" : "\n") + "[\(date)] \(title)\(entry.starred ? " *" : "")\n"
                + (body.isEmpty ? "" : body + "\n")
        case .markdown:
            let day = String(entry.date.localDayAndMinute.prefix(10))
            let time = String(entry.date.localDayAndMinute.dropFirst(11))
            var text = ""
            if previous.map({ $0.date.localDayAndMinute.prefix(10) }) != Substring(day) { text += "\n## \(day)\n" }
            text += "\n### \(time)\(entry.starred ? " ★" : "")\n\n"
            if !entry.tags.isEmpty { text += Self.tagList(entry.tags) + "\n\n" }
            return text + entry.text + (entry.text.hasSuffix("\n") ? "" : "\n")
        }
    }

    /// What goes after the last entry.
    public var footer: String {
        switch format {
        case .jsonl, .txt, .markdown:
            return ""
        case .json:
            let counts = tagCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            let tags = JSONValue.fields(counts.map { ($0.key, .integer($0.value)) })
            return (previous == nil ? "" : "\n") + "], \"tags\": \(tags.serialized)}\n"
        }
    }

    /// Tags as a line of text: `#Cooking #dessert`, control characters shown as their pictures.
    private static func tagList(_ tags: [Tag]) -> String {
        tags.map { "#" + $0.written.withControlPictures(keepingNewlines: false) }.joined(separator: " ")
    }

    /// An entry's tags as jrnl names them: those jrnl reads in its text, then those only given
    /// (which jrnl can't read there) in jrnl's style, lowercased after a `#`.
    private static func jrnlTags(of entry: Entry) -> [String] {
        let written = Set(Tags.names(inText: entry.text))
        return JrnlTags.inText(entry.text)
            + entry.tags.filter { !written.contains($0.name) }.map { "#" + $0.written.lowercased() }
    }

    /// jrnl's title and body: the first line, and the lines after it without trailing white
    /// space (jrnl's importer, and ours, join them again with a line break).
    private static func titleAndBody(_ text: String) -> (title: String, body: String) {
        let trimmed = text.trimmingTrailingWhiteSpace
        guard let newline = trimmed.firstIndex(of: "\n") else { return (trimmed, "") }
        return (String(trimmed[..<newline]), String(trimmed[trimmed.index(after: newline)...]))
    }

}
