/// Undoes Markdown's backslash escapes, which Day One writes before punctuation in its export
/// (`Done\.` for `Done.`, `\- item` for `- item`), so that an imported entry reads as the
/// user wrote it.
///
/// A backslash before an ASCII punctuation character is dropped (`\\` gives one backslash),
/// as CommonMark reads it, except inside code, where Markdown keeps backslashes as written:
/// fenced blocks (a line starting ```` ``` ```` or `~~~` opens and closes one) and inline code
/// spans (between backtick runs of the same length). Every other character is kept.
package enum MarkdownEscapes {
    /// `text` without the backslashes of its Markdown escapes.
    package static func removed(from text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var fence: Substring?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { result += "\n" }
            if let marker = fenceMarker(line) {
                if fence == nil {
                    fence = marker
                } else if let open = fence, marker.first == open.first, marker.count >= open.count {
                    fence = nil
                }
                result += line
                continue
            }
            result += fence == nil ? unescaped(line) : String(line)
        }
        return result
    }

    /// The backtick or tilde run that opens a fenced code block on `line` (up to three spaces
    /// of indent, then three or more), or nil.
    private static func fenceMarker(_ line: Substring) -> Substring? {
        let indent = line.prefix(while: { $0 == " " })
        guard indent.count <= 3, let first = line.dropFirst(indent.count).first, first == "`" || first == "~" else {
            return nil
        }
        let run = line.dropFirst(indent.count).prefix(while: { $0 == first })
        return run.count >= 3 ? run : nil
    }

    /// One line outside fenced code: escapes removed but inside code spans.
    private static func unescaped(_ line: Substring) -> String {
        var result = ""
        var index = line.startIndex
        var openSpan: Int?
        while index < line.endIndex {
            let character = line[index]
            if character == "`" {
                let run = line[index...].prefix(while: { $0 == "`" })
                if openSpan == nil {
                    if line[run.endIndex...].contains(where: { $0 == "`" }) { openSpan = run.count }
                } else if openSpan == run.count {
                    openSpan = nil
                }
                result += run
                index = run.endIndex
                continue
            }
            let next = line.index(after: index)
            if character == "\\", openSpan == nil, next < line.endIndex, isASCIIPunctuation(line[next]) {
                result.append(line[next])
                index = line.index(after: next)
                continue
            }
            result.append(character)
            index = next
        }
        return result
    }

    private static func isASCIIPunctuation(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x21...0x2F).contains(ascii) || (0x3A...0x40).contains(ascii) || (0x5B...0x60).contains(ascii)
            || (0x7B...0x7E).contains(ascii)
    }
}
