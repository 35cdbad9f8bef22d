import JournalText

/// What must hold for the text functions on any input, as the fuzz target and its regression
/// tests check it: each broken rule is one line in the answer, which is empty when all hold.
package enum TextChecks {
    package static func problems(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var problems: [String] = []
        // The byte-level entry point takes what SQLite hands over, valid UTF-8 or not.
        for fold in Fold.allCases { _ = fold.apply(toUTF8: bytes) }
        let text = String(decoding: bytes, as: UTF8.self)
        let canonical = Fold.canonical(text)
        if Fold.cd.apply(toUTF8: bytes) != canonical, String(validating: bytes, as: UTF8.self) != nil {
            problems.append("Fold.cd of the bytes differs from Fold.canonical of the same text")
        }

        let tokens = Tokens.of(canonical: canonical)
        let words = WordBreaker.words(in: canonical)
        if Set(words.map(CodePointKey.init)) != Set(tokens.map(CodePointKey.init))
            || Set(tokens.map(CodePointKey.init)).count != tokens.count
        {
            problems.append("tokens are not the distinct words: \(tokens) vs \(words)")
        }
        for token in tokens {
            if token.isEmpty { problems.append("an empty token") }
            if !contains(canonical, token) {
                problems.append("token \(token.debugDescription) is not in the canonical text")
            }
            do {
                if try !RegexMatcher(pattern: token, options: .literal).matches(canonical) {
                    problems.append("the literal matcher does not find token \(token.debugDescription)")
                }
            } catch {
                problems.append("a literal pattern was refused: \(error.reason)")
            }
        }

        let offsets = Array(WordBreaker.wordOffsetsByPiece(in: canonical).joined())
        let utf16 = Array(canonical.utf16)
        if offsets.count != words.count { problems.append("\(offsets.count) word offsets for \(words.count) words") }
        var previousEnd = 0
        for (range, word) in zip(offsets, words) {
            guard range.lowerBound >= previousEnd, range.upperBound <= utf16.count, !range.isEmpty else {
                problems.append("word offsets \(range) out of order or bounds (\(utf16.count) UTF-16 units)")
                break
            }
            previousEnd = range.upperBound
            if Array(utf16[range]) != Array(word.utf16) {
                problems.append("word offsets \(range) do not hold \(word.debugDescription)")
            }
        }

        let keys = Tokens.prefixKeys(of: tokens)
        let keySet = Set(keys.map(CodePointKey.init))
        if keySet.count != keys.count { problems.append("repeated prefix keys") }
        for key in keys where !(1...3).contains(key.unicodeScalars.count) {
            problems.append("prefix key \(key.debugDescription) is not one to three code points")
        }
        for token in tokens {
            let scalars = Array(token.unicodeScalars)
            for length in 1...min(3, scalars.count) {
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars[..<length])
                if !keySet.contains(CodePointKey(String(prefix))) {
                    problems.append(
                        "prefix \(String(prefix).debugDescription) of \(token.debugDescription) is not a key")
                }
            }
        }
        return problems
    }

    /// Whether `text`'s UTF-8 holds `part`'s as a run of bytes.
    private static func contains(_ text: String, _ part: String) -> Bool {
        Array(text.utf8).firstRange(of: Array(part.utf8)) != nil
    }
}
