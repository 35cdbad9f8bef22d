import JournalText

/// A query as every strategy receives it: trimmed of Unicode white space, never empty.
public struct SearchQuery: Sendable, Equatable {
    /// The text as typed, trimmed.
    public let text: String

    /// Trims `text`; an empty query is a usage error.
    public init(_ text: String) throws(JournalError) {
        let trimmed = text.trimmingWhiteSpace
        guard !trimmed.isEmpty else { throw .usage("the query is empty") }
        self.text = trimmed
    }

    /// `Q = words(canonical(q))` without repeats: the prefixes a word-prefix strategy looks for.
    /// A query with no words (only punctuation or symbols) is a usage error.
    public func canonicalWords() throws(JournalError) -> [String] {
        let words = WordBreaker.uniqueWords(in: Fold.canonical(text))
        guard !words.isEmpty else { throw .usage("the query \"\(text)\" has no words to search for (only punctuation or symbols)") }
        return words
    }
}

/// Bounds for finding, with a range scan on an index, every string that starts with a prefix.
enum PrefixRange {
    /// The least string greater than every string that starts with `prefix`, in code point
    /// order (which is the UTF-8 byte order SQLite compares TEXT in); nil when there is none
    /// (a prefix made only of U+10FFFF).
    static func upperBound(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            guard last.value < 0x10FFFF else { continue }
            let next = last.value + 1 == 0xD800 ? 0xE000 : last.value + 1
            scalars.append(Unicode.Scalar(next)!)
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars)
            return String(result)
        }
        return nil
    }
}
