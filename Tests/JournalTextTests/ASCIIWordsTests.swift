import Testing

@testable import JournalText

/// ``ASCIIWords`` against ICU itself: the same words, at the same places, for every ASCII text.
@Suite struct ASCIIWordsTests {
    /// The words each way, as byte offsets into `text`.
    private func words(of text: String) -> (ascii: [Range<Int>], icu: [Range<Int>]) {
        var text = text
        return text.withUTF8 { utf8 in
            func offsets(_ each: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> [Range<Int>] {
                var ranges: [Range<Int>] = []
                each { word in
                    let start = word.baseAddress! - utf8.baseAddress!
                    ranges.append(start..<(start + word.count))
                }
                return ranges
            }
            return (
                offsets { ASCIIWords.forEachWord(in: utf8, $0) },
                offsets { WordBreaker.forEachWordWithICU(in: utf8, $0) }
            )
        }
    }

    @Test func agreesWithICUOnEachRule() {
        for text in [
            "Hello, world! 42 times ok? #tag $5", "don't a.b.c e.g. 3.14 1,000.5 1;2 a,b a;b a:b 1:2",
            "a_b _a a_ _ __ ___ _1 1_ a_1 x__y", "a.1 1.a a'1 1'2 a..b 1..2 a.'b .a a. 'a a' ...",
            "v2.0.1-rc.1 user@example.com http://x.y/z?q=1&r=2 C++ C# f(x)=y", "tab\there\r\nline\u{0B}ff\u{0C}",
            "\u{00}nul\u{7F}del\u{1B}esc", "", " ", "a", "1", ".", "'", "a'", "'a'",
        ] {
            let (ascii, icu) = words(of: text)
            #expect(ascii == icu, "\(text.debugDescription)")
        }
    }

    /// Every text up to four bytes long from an alphabet of each kind of byte the rules treat
    /// apart, and up to five from the kinds that join words: every sequence of kinds that a
    /// rule looks at (a byte before, a joiner and a byte after) meets every other.
    @Test func agreesWithICUOnEveryShortText() {
        for (alphabet, longest) in [
            (Array("aZ09_.',;: \t\r\n\u{0B}\u{00}\u{7F}\"-@"), 4), (Array("a1_.',:-"), 5),
        ] {
            var texts: [[Character]] = [[]]
            for _ in 0..<longest {
                texts = texts.flatMap { text in alphabet.map { text + [$0] } }
                for text in texts {
                    let (ascii, icu) = words(of: String(text))
                    #expect(ascii == icu, "\(String(text).debugDescription)")
                    if ascii != icu { return }
                }
            }
        }
    }

    /// Every ASCII byte alone, and where it could join or start a word: between letters, between
    /// digits, beside an underscore.
    @Test func agreesWithICUOnEveryByteInEveryPlace() {
        for byte in UInt8(0)..<128 {
            let b = String(UnicodeScalar(byte))
            for text in [b, "a\(b)b", "1\(b)2", "a\(b)", "\(b)a", "_\(b)_", "\(b)\(b)", "x \(b) y"] {
                let (ascii, icu) = words(of: text)
                #expect(ascii == icu, "\(text.debugDescription)")
            }
        }
    }
}
