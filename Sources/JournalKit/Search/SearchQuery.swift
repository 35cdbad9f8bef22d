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
