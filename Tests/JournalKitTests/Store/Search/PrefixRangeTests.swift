import Testing

@testable import JournalKit

@Suite struct PrefixRangeTests {
    @Test func incrementsTheLastCodePoint() {
        #expect(PrefixRange.upperBound(of: "the") == "thf")
        #expect(PrefixRange.upperBound(of: "東京") == "東亭")
        #expect(PrefixRange.upperBound(of: "a\u{D7FF}") == "a\u{E000}")
        #expect(PrefixRange.upperBound(of: "ab\u{10FFFF}") == "ac")
        #expect(PrefixRange.upperBound(of: "\u{FFFF}") == "\u{10000}")
        #expect(PrefixRange.upperBound(of: "\u{10FFFF}\u{10FFFF}") == nil)
    }

    /// In UTF-8 byte order (SQLite's BINARY collation), exactly the strings starting with the
    /// prefix lie in [prefix, upperBound).
    @Test func boundsExactlyTheStringsWithThePrefix() {
        let prefixes = ["a", "th", "é", "東", "\u{FFFF}", "z\u{10FFFF}", "😀"]
        let candidates = [
            "", "a", "b", "th", "thz", "ti", "tg", "é", "éa", "f", "東", "東京", "東\u{10FFFF}", "朮",
            "\u{FFFF}", "\u{FFFF}x", "\u{10000}", "z", "z\u{10FFFF}", "z\u{10FFFF}a", "{", "😀", "😀x", "😁",
        ]
        for prefix in prefixes {
            let upper = PrefixRange.upperBound(of: prefix)!
            for candidate in candidates {
                let inRange =
                    Array(candidate.utf8).lexicographicallyPrecedes(Array(upper.utf8))
                    && !Array(candidate.utf8).lexicographicallyPrecedes(Array(prefix.utf8))
                #expect(
                    inRange == candidate.unicodeScalars.starts(with: prefix.unicodeScalars), "\(prefix) vs \(candidate)"
                )
            }
        }
    }
}

@Suite struct SearchQueryTests {
    @Test func trimsUnicodeWhiteSpaceAndRefusesEmptyQueries() throws {
        #expect(try SearchQuery("\u{3000} the \n").text == "the")
        #expect(throws: JournalError(.usage, "the query is empty")) { try SearchQuery(" \t\u{A0}") }
    }

    @Test func wordsAreCanonical() throws {
        #expect(
            try SearchQuery("Crème BRÛLÉE, Straße").term() == .all([.word("creme"), .word("brulee"), .word("strasse")]))
        expectError(.usage) { try SearchQuery("?!… 🎉").term() }
    }

    @Test func pagesRefuseNegativeNumbers() throws {
        expectError(.usage) { try PageRequest(limit: -1) }
        expectError(.usage) { try PageRequest(offset: -5) }
        #expect(try PageRequest(limit: 0).sqlLimit == -1)
    }
}
