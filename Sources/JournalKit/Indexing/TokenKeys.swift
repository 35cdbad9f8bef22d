import JournalText

/// The prefix keys of a batch's distinct tokens (each token's first one, two and three code
/// points), numbered once for the batch: what the indexer lists prefix-key postings from.
///
/// Invariant: the keys of the batch's token `t` (its t-th distinct token) are
/// `texts[Int(k)]` for each `k` in `tokenKeys[tokenKeyStarts[t]..<tokenKeyStarts[t + 1]]`,
/// each key once in `texts`.
struct TokenKeys: Sendable {
    let texts: [String]
    let tokenKeys: [Int32]
    let tokenKeyStarts: [Int]

    /// The keys of `tokens`, the batch's distinct tokens in their numbering's order.
    init(of tokens: [String]) {
        var builder = Builder(capacity: tokens.count / 4)
        for var token in tokens { token.withUTF8 { builder.add(token: $0) } }
        self = builder.finish()
    }

    private init(texts: [String], tokenKeys: [Int32], tokenKeyStarts: [Int]) {
        (self.texts, self.tokenKeys, self.tokenKeyStarts) = (texts, tokenKeys, tokenKeyStarts)
    }

    /// Collects the keys a token at a time, in the tokens' numbering order.
    struct Builder {
        private var numbering: WordNumbering
        private var tokenKeys: [Int32] = []
        private var tokenKeyStarts: [Int] = [0]

        /// A builder for about `capacity` distinct keys.
        init(capacity: Int) {
            numbering = WordNumbering(capacity: capacity)
        }

        /// Adds the keys of the next token, whose UTF-8 bytes are `utf8`.
        mutating func add(token utf8: UnsafeBufferPointer<UInt8>) {
            Tokens.forEachPrefixKey(ofUTF8: utf8) { tokenKeys.append(numbering.number(of: $0).number) }
            tokenKeyStarts.append(tokenKeys.count)
        }

        func finish() -> TokenKeys {
            TokenKeys(texts: numbering.words, tokenKeys: tokenKeys, tokenKeyStarts: tokenKeyStarts)
        }
    }
}
