import Testing

@testable import JournalText

@Suite struct WordNumberingTests {
    /// Numbered together, texts give each of their words the number of its first appearance in
    /// any of them, and each text its own distinct words and order, as `WordBreaker.words`
    /// (which does not go through a numbering) has them.
    @Test func numbersEveryTextsWordsAsTheWordsInOrderHaveThem() {
        let texts = [
            "the cat saw the other cat", "", "other cats, the end", "東京タワーに行きました 東京",
            "caf\u{E9} cafe\u{301} caf\u{E9}", "😀 𐐀bc ok 42 42",
        ]
        var numbering = WordNumbering(capacity: 2)
        var (distinct, order): ([Int32], [Int32]) = ([], [])
        for text in texts {
            numbering.add(text: text, distinct: &distinct, order: &order)
            let words = WordBreaker.words(in: text)
            #expect(order.map { numbering.words[Int(distinct[Int($0)])] } == words)
            #expect(distinct.map { numbering.words[Int($0)] } == words.uniquedByCodePoints, "\(text)")
        }
        #expect(
            numbering.words == [
                "the", "cat", "saw", "other", "cats", "end", "東京タワー", "に", "行き", "ま", "した", "東京", "caf\u{E9}",
                "cafe\u{301}", "𐐀bc", "ok", "42",
            ])
    }

    /// Words compare by their bytes: canonically equivalent forms are two words, and a word
    /// that is another's prefix, or differs in its last of more than eight bytes, is its own.
    @Test func wordsAreTheirCodePoints() {
        var numbering = WordNumbering()
        let words = ["caf\u{E9}", "cafe\u{301}", "abcdefgh", "abcdefghi", "abcdefghj", "abcdefg", "", "a"]
        for (index, word) in words.enumerated() {
            #expect(numbering.number(of: word) == (Int32(index), true))
        }
        for (index, word) in words.enumerated() {
            #expect(numbering.number(of: word) == (Int32(index), false))
        }
    }

    /// A word given as its UTF-8 bytes is the word given as a string: one number for both,
    /// whichever form comes first.
    @Test func bytesAndStringsNumberAlike() {
        var numbering = WordNumbering()
        let words = ["caf\u{E9}", "cafe\u{301}", "東京", "abcdefghi"]
        for (index, word) in words.enumerated() {
            let bytes = Array(word.utf8)
            func byBytes() -> (number: Int32, isNew: Bool) {
                bytes.withUnsafeBufferPointer { numbering.number(of: $0) }
            }
            if index.isMultiple(of: 2) {
                #expect(byBytes() == (Int32(index), true))
                #expect(numbering.number(of: word) == (Int32(index), false))
            } else {
                #expect(numbering.number(of: word) == (Int32(index), true))
                #expect(byBytes() == (Int32(index), false))
            }
        }
        #expect(numbering.words == words)
    }

    /// Growing many times over keeps every number.
    @Test func keepsNumbersAsItGrows() {
        var numbering = WordNumbering(capacity: 1)
        let words = (0..<5_000).map { "w\($0)é" }
        for (index, word) in words.enumerated() { #expect(numbering.number(of: word).number == Int32(index)) }
        #expect(words.allSatisfy { numbering.number(of: $0).isNew == false })
        #expect(numbering.words == words)
    }
}

extension Array where Element == String {
    fileprivate var uniquedByCodePoints: [String] {
        var seen = Set<[UInt8]>()
        return filter { seen.insert([UInt8]($0.utf8)).inserted }
    }
}
