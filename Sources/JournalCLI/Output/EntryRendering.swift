import Foundation
import JournalKit
import JournalText
import TextReport

/// Entries as the terminal shows them.
enum EntryRendering {
    /// One line: number, local date and time, a star when starred, and a snippet of the text
    /// around its first match; then, `withTags`, the entry's tags (in at most a third of what
    /// the snippet would have).
    static func line(
        _ entry: Entry, highlights: [Range<String.Index>], terminal: Terminal, withTags: Bool = false
    ) -> String {
        let head =
            "\(Formatting.padded(entry.id.shortName, to: 7)) \(entry.date.localDayAndMinute) \(entry.starred ? "★" : " ") "
        let room = max(20, terminal.width - head.count)
        let tags = withTags && !entry.tags.isEmpty ? DisplayWidth.clip(tagList(entry.tags), to: room / 3 - 2) : ""
        let snippetWidth = tags.isEmpty ? room : room - DisplayWidth.of(tags) - 2
        let text = snippet(entry.text, highlights: highlights, width: snippetWidth, terminal: terminal)
        return terminal.dim(head) + text + (tags.isEmpty ? "" : "  " + terminal.dim(tags))
    }

    /// The whole entry, for `journal show`: a header (star and tags included), then the text.
    static func full(_ entry: Entry, terminal: Terminal) -> String {
        let text = terminal.isTerminal ? entry.text.withControlPictures(keepingNewlines: true) : entry.text
        var header =
            terminal.bold("\(entry.id.shortName)  \(entry.date.localDayAndMinute)\(entry.starred ? "  ★" : "")") + "\n"
            + terminal.dim(entry.id.uri) + "\n"
        if !entry.tags.isEmpty { header += terminal.dim(tagList(entry.tags)) + "\n" }
        return header + "\n" + text
    }

    /// Tags as people write them: "#Café #東京".
    static func tagList(_ tags: [Tag]) -> String {
        tags.map { "#" + $0.written.withControlPictures(keepingNewlines: false) }.joined(separator: " ")
    }

    /// "20 of 1,234 entries", "entries 21–40 of 1,234", "no entries".
    static func summary(shown: Int, total: Int, offset: Int) -> String {
        if total == 0 { return "no entries" }
        if shown == 0 {
            return "none past \(Formatting.grouped(offset)) of \(Formatting.count(total, "entry", "entries"))"
        }
        if offset == 0 { return "\(Formatting.grouped(shown)) of \(Formatting.count(total, "entry", "entries"))" }
        return
            "entries \(Formatting.grouped(offset + 1))–\(Formatting.grouped(offset + shown)) of \(Formatting.grouped(total))"
    }

    /// How far behind the index is: "indexing: 12,000 of 50,000 new entries", or
    /// "indexing: rebuilding the index, 150,000 entries to go".
    static func indexingLine(_ progress: IndexingProgress) -> String {
        if progress.isRebuilding {
            return
                "indexing: rebuilding the index, \(Formatting.count(progress.pendingEntries, "entry", "entries")) to go"
        }
        let pending = Formatting.count(progress.pendingEntries, "new entry", "new entries")
        return "indexing: \(Formatting.grouped(progress.indexedEntries)) of \(pending)"
    }

    /// The same, after a search's results: what the answer is from.
    static func indexingNote(_ progress: IndexingProgress) -> String {
        indexingLine(progress)
            + (progress.isRebuilding
                ? "; this answer is from the entries indexed so far" : "; this answer is from before them")
    }

    /// At most `width` columns of `text` on one line, starting a little before the first
    /// highlight, runs of white space shown as one space, cut ends marked with "…".
    static func snippet(_ text: String, highlights: [Range<String.Index>], width: Int, terminal: Terminal) -> String {
        var start = highlights.first?.lowerBound ?? text.startIndex
        // Look back a quarter of the line, or further when what follows the match is short.
        var tail = 0
        var cursor = start
        while cursor < text.endIndex && tail < width {
            tail += DisplayWidth.of(text[cursor])
            cursor = text.index(after: cursor)
        }
        let anchor = start
        let leadBudget = max(width / 4, width - tail - 2)
        var lead = 0
        while start > text.startIndex && lead < leadBudget {
            start = text.index(before: start)
            lead += DisplayWidth.of(text[start])
        }
        // Start at a word rather than in the middle of one.
        if start > text.startIndex, !text[text.index(before: start)].isWhitespace,
            let space = text[start..<anchor].firstIndex(where: \.isWhitespace)
        {
            start = space
        }
        let cutAtStart = start > text.startIndex
        var output = cutAtStart ? "…" : ""
        var used = output.count
        var pendingSpace = false
        var next = highlights.firstIndex { $0.upperBound > start } ?? highlights.endIndex
        var index = start
        while index < text.endIndex {
            if text[index].isWhitespace {
                pendingSpace = used > (cutAtStart ? 1 : 0)
                index = text.index(after: index)
                continue
            }
            while next < highlights.endIndex && highlights[next].upperBound <= index { next += 1 }
            let highlighted = next < highlights.endIndex && highlights[next].contains(index)
            let runEnd = highlighted ? highlights[next].upperBound : text.index(after: index)
            let piece = String(text[index..<runEnd]).withControlPictures(keepingNewlines: false)
            let columns = piece.reduce(0) { $0 + DisplayWidth.of($1) } + (pendingSpace ? 1 : 0)
            if used + columns > width - 1 {
                output += "…"
                break
            }
            output += (pendingSpace ? " " : "") + (highlighted ? terminal.highlight(piece) : piece)
            pendingSpace = false
            used += columns
            index = runEnd
        }
        return output
    }
}
