import Testing

@testable import JournalText

@Suite struct FoldTests {
    @Test(arguments: [
        ("Thé Crème BRÛLÉE", "the creme brulee"),
        ("Straße", "strasse"),
        ("İstanbul", "istanbul"),
        ("ǅ", "dz"),
        ("ﬁ", "fi"),
        ("Ａ", "a"),
        ("Ångström", "angstrom"),
        ("Ёлка", "елка"),
        ("が", "が"),
    ])
    func canonicalMatchesTheSemanticsExamples(input: String, expected: String) {
        #expect(Fold.canonical(input).unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    @Test func caseFoldKeepsDiacriticsAndComposes() {
        // fold_c: İ folds to i + U+0307, which NFC cannot compose; ß expands; é stays composed.
        #expect(Array(Fold.c.apply(to: "İ").unicodeScalars) == ["i", "\u{307}"])
        #expect(Fold.c.apply(to: "Straße") == "strasse")
        #expect(Array(Fold.c.apply(to: "CAFE\u{301}").unicodeScalars) == ["c", "a", "f", "\u{E9}"])
        #expect(Fold.c.apply(to: "ǅ") == "ǆ")
    }

    @Test func diacriticFoldKeepsCaseAndAppliesCompatibility() {
        #expect(Fold.d.apply(to: "Thé Crème") == "The Creme")
        #expect(Fold.d.apply(to: "ﬁ") == "fi")
        #expect(Fold.d.apply(to: "Ａ") == "A")
        #expect(Fold.d.apply(to: "Straße") == "Straße")
    }

    @Test func stripKeepsMarksOutsideTheCombiningBlocks() {
        // Voicing marks stay: が decomposes to か + U+3099 and NFC puts it back together.
        #expect(Array(Fold.cd.apply(to: "が").unicodeScalars) == ["\u{304C}"])
        // Hebrew points, Devanagari vowel signs and Arabic harakat are not in the stripped blocks.
        for text in ["שָׁלוֹם", "हिंदी", "مَرْحَبًا"] {
            #expect(Fold.d.apply(to: text).unicodeScalars.elementsEqual(text.unicodeScalars))
        }
        // Marks from each stripped block go.
        #expect(Fold.d.apply(to: "a\u{1AB0}b\u{1DC0}c\u{20D0}d\u{FE20}e") == "abcde")
    }

    @Test func asciiFastPathAgreesWithICU() {
        let ascii = "Hello, WORLD! 123 _%\\.*(+[ ~"
        #expect(Fold.cd.apply(to: ascii) == "hello, world! 123 _%\\.*(+[ ~")
        #expect(Fold.c.apply(to: ascii) == Fold.c.apply(to: ascii + "é").dropLast())
        #expect(Fold.d.apply(to: ascii) == ascii)
    }

    @Test func keepsNULAndEmptyText() {
        #expect(Fold.canonical("") == "")
        #expect(Fold.canonical("A\u{0}É") == "a\u{0}e")
    }

    @Test func foldsLongTextBeyondTheInitialScratchCapacity() {
        let long = String(repeating: "Äß ", count: 50_000)
        #expect(Fold.canonical(long) == String(repeating: "ass ", count: 50_000))
    }

    @Test func canonicalIsIdempotent() {
        for text in ["Thé Crème BRÛLÉE", "ǅ ﬁ Ａ", "İstanbul", "東京タワー", "ﷺ"] {
            let once = Fold.canonical(text)
            #expect(Fold.canonical(once) == once)
        }
    }
}
