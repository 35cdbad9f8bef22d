import Testing

@testable import JournalText

@Suite struct WordBreakerTests {
    @Test func keepsWordsAndNumbersDropsPunctuationSymbolsAndEmoji() {
        #expect(
            WordBreaker.words(in: "Hello, world! 42 times — ok? 🎉 #tag $5") == [
                "Hello", "world", "42", "times", "ok", "tag", "5",
            ])
    }

    @Test func segmentsJapaneseWithTheDictionary() {
        // Splitting on spaces would give one "word"; ICU's dictionary finds five.
        #expect(WordBreaker.words(in: "東京タワーに行きました") == ["東京タワー", "に", "行き", "ま", "した"])
        #expect(WordBreaker.words(in: "今日は、晴れ。") == ["今日", "は", "晴れ"])
    }

    @Test func segmentsChineseAndThai() {
        #expect(WordBreaker.words(in: "我们今天去北京").count > 1)
        #expect(WordBreaker.words(in: "สวัสดีครับ").count > 1)
    }

    @Test func offsetsAreUTF16UnitsAfterAnEmoji() {
        // 😀 is two UTF-16 code units (and four UTF-8 bytes).
        let text = "😀 café"
        #expect(Array(WordBreaker.wordOffsetsByPiece(in: text).joined()) == [3..<7])
        #expect(WordBreaker.words(in: text) == ["café"])
        #expect(Array(WordBreaker.wordOffsetsByPiece(in: "𝒜𝒷 x").joined()) == [0..<4, 5..<6])
    }

    /// A long text broken a piece at a time has the words it has broken whole, wherever the
    /// pieces end (in a word, in spaces, beside a surrogate pair), and a word longer than a
    /// piece is cut rather than stalling.
    @Test func piecesGiveTheWordsOfTheWholeText() {
        let sentence = "Crème brûlée, don't 3.14 — 𝒜𝒷 emoji 😀 here; Straße ǅ ﬁ "
        let text = String(repeating: sentence, count: 200)
        let whole = Array(WordBreaker.wordOffsetsByPiece(in: text, pieceLength: 1 << 30).joined())
        #expect(whole.count == WordBreaker.words(in: text).count)
        for pieceLength in [513, 600, 1_000, 4_099] {
            let pieces = Array(WordBreaker.wordOffsetsByPiece(in: text, pieceLength: pieceLength, margin: 256))
            #expect(pieces.count > 1, "\(pieceLength)")
            #expect(Array(pieces.joined()) == whole, "\(pieceLength)")
        }
        let giant = String(repeating: "a", count: 2_000) + " end"
        let cut = Array(WordBreaker.wordOffsetsByPiece(in: giant, pieceLength: 600, margin: 256).joined())
        #expect(cut.first?.lowerBound == 0 && cut.last == 2_001..<2_004)
        #expect(zip(cut, cut.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
    }

    @Test func apostrophesAndDecimalsStayInOneWord() {
        #expect(WordBreaker.words(in: "don't 3.14") == ["don't", "3.14"])
    }

    @Test func uniqueWordsKeepFirstAppearanceOrder() {
        #expect(WordBreaker.uniqueWords(in: "b a b c a") == ["b", "a", "c"])
    }

    @Test func tokensAreWordsOfTheCanonicalText() {
        #expect(Tokens.of(text: "Straße STRASSE Crème") == ["strasse", "creme"])
        #expect(Tokens.of(text: "…!!! 🎉") == [])
    }

    @Test func emptyAndNULText() {
        #expect(WordBreaker.words(in: "") == [])
        #expect(WordBreaker.words(in: "a\u{0}b") == ["a", "b"])
    }

    @Test func worksFromManyThreadsAtOnce() async {
        let texts = (0..<200).map { "word\($0) 東京タワー \($0)" }
        let counts = await withTaskGroup(of: Int.self) { group in
            for text in texts { group.addTask { WordBreaker.words(in: text).count } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.count == 200)
        #expect(Set(counts) == [Set(counts).first!])
    }
}

@Suite struct WhiteSpaceTests {
    @Test func trimsUnicodeWhiteSpaceOnly() {
        #expect("\u{3000}\u{A0} the \u{2003}\n".trimmingWhiteSpace == "the")
        #expect("  \t ".trimmingWhiteSpace == "")
        #expect("\u{200B}x".trimmingWhiteSpace == "\u{200B}x")  // ZERO WIDTH SPACE is not White_Space
    }

    @Test func isAllWhiteSpaceExactlyWhenTrimmingLeavesNothing() {
        for text in ["", "  \t ", "\u{3000}\u{A0}\u{2003}\n", "\u{200B}", " x ", "\u{A0}é", "\r\n\u{85}"] {
            #expect(text.isAllWhiteSpace == text.trimmingWhiteSpace.isEmpty, "\(Array(text.unicodeScalars))")
            #expect(text[...].isAllWhiteSpace == text.isAllWhiteSpace)
        }
        #expect("\u{3000}\u{A0}\u{2003}\n".isAllWhiteSpace && !"\u{200B}".isAllWhiteSpace)
    }
}

@Suite struct RegexMatcherTests {
    @Test func findsALiteralPatternAnywhereWithMetacharactersAsText() throws {
        for needle in ["a.b", "50%", "x_y", "(", "\\", "\\E", "\\Q", "[a]", "a+", "$", "^x"] {
            let matcher = try RegexMatcher(pattern: needle, options: .literal)
            #expect(matcher.matches("before \(needle) after"), "\(needle)")
            #expect(!matcher.matches("before after"), "\(needle)")
        }
        #expect(!(try RegexMatcher(pattern: "a.b", options: .literal)).matches("axb"))
    }

    @Test func matchesByCodePointsNotCanonicalEquivalence() throws {
        let matcher = try RegexMatcher(pattern: "café", options: .literal)
        #expect(matcher.matches("un café noir"))
        #expect(!matcher.matches("un cafe\u{301} noir"))
    }

    @Test func runsRealExpressionsAndIgnoresCaseWhenAsked() throws {
        let matcher = try RegexMatcher(pattern: "\\bwalk(ed|ing)\\b", options: .caseInsensitive)
        #expect(matcher.matches("We WALKED home"))
        #expect(!matcher.matches("sidewalks"))
        #expect(try RegexMatcher(pattern: "東京.+").matches("東京タワー"))
        #expect(try RegexMatcher(pattern: "b").matches("a\u{0}b"), "text after a NUL is searched")
    }

    @Test func reportsAnInvalidPatternAndWhere() {
        #expect(throws: InvalidPattern(reason: "U_REGEX_MISMATCHED_PAREN", offset: 4)) {
            try RegexMatcher(pattern: "ab(c")
        }
        #expect(throws: InvalidPattern.self) { try RegexMatcher(pattern: "[z-a]") }
        #expect(throws: InvalidPattern.self) { try RegexMatcher(pattern: "*") }
    }
}
