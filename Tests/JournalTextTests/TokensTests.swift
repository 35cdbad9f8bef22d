import JournalText
import Testing

@Suite struct TokensTests {
    @Test func prefixKeysAreTheFirstOneToThreeCodePointsOfEachTokenOnce() {
        #expect(Tokens.prefixKeys(of: ["the", "then", "a", "東京"]) == ["t", "th", "the", "a", "東", "東京"])
        #expect(Tokens.prefixKeys(of: []) == [])
    }

    @Test func prefixKeysCountCodePointsNotBytesOrCharacters() {
        // "é" as e + U+0301 is two code points; "😀" is one code point of four UTF-8 bytes.
        #expect(Tokens.prefixKeys(of: ["e\u{301}t"]) == ["e", "e\u{301}", "e\u{301}t"])
        #expect(Tokens.prefixKeys(of: ["😀ab"]) == ["😀", "😀a", "😀ab"])
    }

    @Test func codePointKeysCompareCodePointsNotCanonicalEquivalence() {
        #expect(CodePointKey("caf\u{E9}") != CodePointKey("cafe\u{301}"))
        #expect(Set([CodePointKey("caf\u{E9}"), CodePointKey("cafe\u{301}")]).count == 2)
        #expect(CodePointKey("東京") == CodePointKey("東京"))
    }

    /// Keys order as their UTF-8 bytes, which is code point order (not UTF-16's, which puts
    /// U+1F600 before U+FFFF) and not Swift's canonical order (which calls these two `café` equal).
    @Test func codePointKeysOrderAsTheirBytes() {
        let sorted = ["\u{1F600}", "caf\u{E9}", "\u{FFFF}", "cafe\u{301}", "cafe", "b", "caf"].map(CodePointKey.init)
            .sorted()
        #expect(sorted.map(\.string) == ["b", "caf", "cafe", "cafe\u{301}", "caf\u{E9}", "\u{FFFF}", "\u{1F600}"])
        #expect(!(CodePointKey("same") < CodePointKey("same")))
    }

    /// Where two keys' leading bytes differ, they order the keys; a tie (a shorter key padded
    /// with zeros, a NUL in the text) leaves it to the whole keys.
    @Test func leadingBytesOrderKeysWhereTheyDiffer() {
        let texts = [
            "", "a", "a\u{0}", "ab", "abcdefgh", "abcdefghi", "abcdefgz", "\u{FFFF}", "\u{1F600}", "é", "e\u{301}",
        ]
        for left in texts.map(CodePointKey.init) {
            for right in texts.map(CodePointKey.init) where left.leadingBytes != right.leadingBytes {
                #expect((left.leadingBytes < right.leadingBytes) == (left < right), "\(left.string) \(right.string)")
            }
        }
        #expect(CodePointKey("a").leadingBytes == CodePointKey("a\u{0}").leadingBytes)
        #expect(CodePointKey("abcdefgh").leadingBytes == CodePointKey("abcdefghi").leadingBytes)
    }

    @Test func uniqueWordsKeepsFirstAppearances() {
        #expect(WordBreaker.uniqueWords(in: "the cat saw the other cat") == ["the", "cat", "saw", "other"])
        // Words after characters of two, three and four UTF-8 bytes (one of them two UTF-16
        // units) come out whole: ICU's UTF-16 offsets map back onto the UTF-8 text.
        #expect(WordBreaker.words(in: "naïve — 😀 𐐀bc, ok 42") == ["naïve", "𐐀bc", "ok", "42"])
    }
}
