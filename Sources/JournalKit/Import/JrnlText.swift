import Foundation
import JournalText

/// jrnl's plain-text journal file: each entry starts on a line `[DATE] ` followed by its first
/// line (its title), and runs to the next such line; a title ending in `*` marks a starred
/// entry. Dates are jrnl's local dates and times (``JrnlDate``).
///
/// A line starts an entry only when its bracket holds a date, as jrnl reads it, so `[1]` or
/// `[note]` at the start of a line is text. Text before the first entry is refused rather than
/// dropped. An entry is the same as one in the journal when it has the same date (to the
/// precision written) and the same text.
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
            throw .invalidInput("line \(line): invalid UTF-8", line: line)
        }
        return try entries(in: text, timeZone: timeZone)
    }

    /// The entries of `text`, oldest first as written; an entry with no text is nil. A leading
    /// byte order mark is not part of the text.
    package static func entries(in text: String, timeZone: TimeZone = .current) throws(JournalError) -> [ImportedEntry?] {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var entries: [ImportedEntry?] = []
        var current: (header: JrnlDate, line: Int, lines: [Substring])?
        func finish() {
            guard let (header, line, lines) = current else { return }
            entries.append(entry(header: header, line: line, lines: lines))
        }
        // "\r\n" is one Character in Swift: both ends of line split lines.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            if let (date, title) = header(line, timeZone: timeZone) {
                finish()
                current = (date, index + 1, [title])
            } else if current != nil {
                current?.lines.append(line)
            } else if !String(line).trimmingWhiteSpace.isEmpty {
                throw .invalidInput(
                    "line \(index + 1): text before the first entry (an entry starts with a line like [2024-05-01 09:30] Title)",
                    line: index + 1)
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
        guard !text.trimmingWhiteSpace.isEmpty else { return nil }
        return ImportedEntry(
            entry: NewEntry(date: header.date, text: text, starred: starred), sameDateAndTextWithin: header.precision,
            location: "line \(line)", line: line)
    }
}
