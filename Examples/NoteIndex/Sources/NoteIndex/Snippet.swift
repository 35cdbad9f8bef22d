import JournalKit

/// The line of a note to show for a search: the first one that holds a match, trimmed.
enum Snippet {
    static func line(of text: String, matching query: String) -> String {
        guard let parsed = try? SearchQuery(query) else { return firstLine(of: text) }
        let highlighter = MatchHighlighter(query: parsed, highlighting: SearchStrategies.standard.highlighting)
        guard let match = highlighter.ranges(in: text).first else { return firstLine(of: text) }
        let start = text[..<match.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
        let end = text[match.upperBound...].firstIndex(of: "\n") ?? text.endIndex
        return String(text[start..<end].prefix(120)).trimmingCharacters(in: .whitespaces)
    }

    private static func firstLine(of text: String) -> String {
        String(text.split(separator: "\n").first?.prefix(120) ?? "")
    }
}
