import Foundation
import JournalText

/// jrnl's plain-text journal file: each entry starts on a line `[DATE] ` followed by its first
/// line (its title), and runs to the next such line; a title ending in `*` marks a starred
/// entry. Dates are jrnl's local dates and times (``JrnlDate``).
///
/// A line starts an entry only when its bracket holds a date, as jrnl reads it, so `[1]` or
/// `[note]` at the start of a line is text. Text before the first entry is refused rather than
/// dropped. An entry is the same as one in the journal when it has the same date (to the
/// precision written) and the same text as jrnl writes it (``normalized(_:)``).
package enum JrnlText {
    /// The entries of the file `data`, which must be UTF-8 (an error names the first line that
    /// is not).
    package static func entries(in data: Data, timeZone: TimeZone = .current) throws(JournalError) -> [ImportedEntry?] {
        guard let text = String(validating: data, as: UTF8.self) else {
            var bytes = data.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            var line = 1
            while case .valid(let scalar) = parser.parseScalar(from: &bytes) {
                if scalar.first == 0x0A { line += 1 }
            }
            throw JournalError.invalidInput("invalid UTF-8").onLine(line)
        }
        return try entries(in: text, timeZone: timeZone)
    }

    /// The entries of `text`, oldest first as written; an entry with no text is nil. A leading
    /// byte order mark is not part of the text.
    package static func entries(in text: String, timeZone: TimeZone = .current) throws(JournalError) -> [ImportedEntry?]
    {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var entries: [ImportedEntry?] = []
        var current: (header: JrnlDate, line: Int, lines: [Substring])?
        func finish() {
            guard let (header, line, lines) = current else { return }
            entries.append(entry(header: header, line: line, lines: lines))
        }
        // "\r\n" is one Character in Swift: both ends of line split lines.
        for (index, line) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            if let (date, title) = header(line, timeZone: timeZone) {
                finish()
                current = (date, index + 1, [title])
            } else if current != nil {
                current?.lines.append(line)
            } else if !line.isAllWhiteSpace {
                throw JournalError.invalidInput(
                    "text before the first entry (an entry starts with a line like [2024-05-01 09:30] Title)"
                ).onLine(index + 1)
            }
        }
        finish()
        return entries
    }

    /// The date and the rest of a line that starts an entry: `[DATE] rest` or `[DATE]` alone.
    package static func header(_ line: Substring, timeZone: TimeZone) -> (JrnlDate, Substring)? {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
        let after = line.index(after: close)
        guard after == line.endIndex || line[after] == " ",
            let date = JrnlDate(String(line[line.index(after: line.startIndex)..<close]), timeZone: timeZone)
        else { return nil }
        return (date, after == line.endIndex ? "" : line[line.index(after: after)...])
    }

    private static func entry(header: JrnlDate, line: Int, lines: [Substring]) -> ImportedEntry? {
        var lines = lines
        var starred = false
        let title = String(lines[0]).trimmingTrailingWhiteSpace
        if title.hasSuffix("*") {
            starred = true
            lines[0] = Substring(String(title.dropLast()).trimmingTrailingWhiteSpace)
        }
        let text = lines.joined(separator: "\n").trimmingTrailingWhiteSpace
        guard !text.isAllWhiteSpace else { return nil }
        return ImportedEntry(
            entry: NewEntry(date: header.date, text: text, starred: starred), sameDateAndText: match(header), line: line
        )
    }

    /// How an entry from jrnl is recognised in a journal: dated within the precision of
    /// `date`, with the same text as jrnl writes it.
    package static func match(_ date: JrnlDate) -> DateAndTextMatch {
        DateAndTextMatch(precision: date.precision, key: normalized)
    }

    /// `text` as jrnl writes it to its file: its title, then its body on the next line, each
    /// without surrounding white space. The title is the first line, or, in a text of one line,
    /// its first sentence; so jrnl's rewriting an entry (it drops the blank line after a title
    /// and breaks a one-line entry after its first sentence) does not make it another entry.
    package static func normalized(_ text: String) -> String {
        let trimmed = text.trimmingWhiteSpace
        let scalars = trimmed.unicodeScalars
        var split = scalars.firstIndex(where: { $0 == "\n" || $0 == "\r" })
        var bodyStart = split.map { scalars.index(after: $0) }
        if split == nil, let end = firstSentenceEnd(scalars) {
            split = end.title
            bodyStart = end.body
        }
        guard let split, let bodyStart else { return trimmed }
        let title = String(String.UnicodeScalarView(scalars[..<split])).trimmingWhiteSpace
        let body = String(String.UnicodeScalarView(scalars[bodyStart...])).trimmingWhiteSpace
        return body.isEmpty ? title : title + "\n" + body
    }

    /// Where the first sentence ends in a line of text, as jrnl finds it: a sentence terminal,
    /// an optional closing quote and closing brackets, then white space; or a full-width
    /// terminal, which needs no space after it.
    private static func firstSentenceEnd(
        _ scalars: String.UnicodeScalarView
    ) -> (title: String.Index, body: String.Index)? {
        let terminals: Set<Unicode.Scalar> = [
            ".", "!", "?", "\u{2026}", "\u{203C}", "\u{203D}", "\u{2047}", "\u{2048}", "\u{2049}", "\u{22EF}",
            "\u{FE52}", "\u{FE57}",
        ]
        let fullWidth: Set<Unicode.Scalar> = ["\u{FF01}", "\u{FF0E}", "\u{FF1F}", "\u{FF61}", "\u{3002}"]
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            var next = scalars.index(after: index)
            if fullWidth.contains(scalar) { return (next, next) }
            if terminals.contains(scalar) {
                if next < scalars.endIndex, ["'", "\u{2019}", "\"", "\u{201D}"].contains(scalars[next]) {
                    next = scalars.index(after: next)
                }
                while next < scalars.endIndex, scalars[next] == "]" || scalars[next] == ")" {
                    next = scalars.index(after: next)
                }
                var body = next
                while body < scalars.endIndex, scalars[body].properties.isWhitespace {
                    body = scalars.index(after: body)
                }
                if body > next { return (next, body) }
            }
            index = scalars.index(after: index)
        }
        return nil
    }
}
