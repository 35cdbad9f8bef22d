/// `tokens(e)` of the search semantics: the distinct words of an entry's canonical text.
public enum Tokens {
    /// The tokens of an entry whose text is `text`.
    public static func of(text: String) -> [String] { of(canonical: Fold.canonical(text)) }

    /// The tokens of an entry whose canonical text is already known (stored beside the entry).
    public static func of(canonical: String) -> [String] { WordBreaker.uniqueWords(in: canonical) }
}
