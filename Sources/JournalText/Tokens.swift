/// `tokens(e)` of the search semantics: the distinct words of an entry's canonical text.
public enum Tokens {
    /// The tokens of an entry whose text is `text`.
    public static func of(text: String) -> [String] { of(canonical: Fold.canonical(text)) }

    /// The tokens of an entry whose canonical text is already known (stored beside the entry).
    public static func of(canonical: String) -> [String] { WordBreaker.uniqueWords(in: canonical) }

    /// The tokens of an entry whose canonical text is `canonical`, and its words in order, each
    /// as the position of its token: what a phrase is checked against.
    public static func withOrder(canonical: String) -> (tokens: [String], order: [Int32]) {
        let (unique, order) = WordBreaker.uniqueWordsAndOrder(in: canonical)
        return (unique, order)
    }

    /// The prefix keys of an entry whose tokens are `tokens`: the first one, two and three code
    /// points of each token (fewer for a shorter token), each once. An entry has a token
    /// starting with a word of up to three code points exactly when that word is one of its keys.
    package static func prefixKeys(of tokens: [String]) -> [String] {
        var seen = Set<CodePointKey>(minimumCapacity: tokens.count * 2)
        var keys: [String] = []
        for var token in tokens {
            token.withUTF8 { utf8 in
                forEachPrefixKey(ofUTF8: utf8) { bytes in
                    let key = String(decoding: bytes, as: UTF8.self)
                    if seen.insert(CodePointKey(key)).inserted { keys.append(key) }
                }
            }
        }
        return keys
    }

    /// The prefix keys of one token, as its UTF-8 bytes `utf8` hold them: its first one, two
    /// and three code points (fewer for a shorter token), each once, shortest first.
    package static func forEachPrefixKey(
        ofUTF8 utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var end = 0
        for _ in 0..<3 where end < utf8.count {
            end += UTF8Length.ofSequence(startingWith: utf8[end])
            body(UnsafeBufferPointer(rebasing: utf8[..<min(end, utf8.count)]))
        }
    }
}
