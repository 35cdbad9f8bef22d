import JournalText

/// Finds, in an entry's original text, the words a word-prefix query matched, so that output
/// can highlight them: each word of the text whose canonical tokens start with a query word.
public struct WordPrefixHighlighter: Sendable {
    private let queryWords: [String]

    public init(query: SearchQuery) throws(JournalError) {
        queryWords = try query.canonicalWords()
    }

    /// The matched words of `text`, in order.
    public func ranges(in text: String) -> [Range<String.Index>] {
        WordBreaker.wordOffsets(in: text).compactMap { offsets in
            let range = String.Index(utf16Offset: offsets.lowerBound, in: text)..<String.Index(utf16Offset: offsets.upperBound, in: text)
            let tokens = WordBreaker.words(in: Fold.canonical(String(text[range])))
            let matched = tokens.contains { token in
                queryWords.contains { token.unicodeScalars.starts(with: $0.unicodeScalars) }
            }
            return matched ? range : nil
        }
    }
}
