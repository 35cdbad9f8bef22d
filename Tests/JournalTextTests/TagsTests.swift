import Testing

@testable import JournalText

/// The tag rule of the search semantics, on answers worked out by hand.
@Suite struct TagsTests {
    @Test(arguments: [
        ("#idea at the start", ["idea"]),
        ("a #tag and an @person", ["tag", "person"]),
        ("# Heading", []),
        ("####", []),
        ("## also a heading", []),
        ("me@example.com and a#b", []),
        ("#東京 に行った", ["東京"]),
        ("@idea-box and #a/b/c", ["idea-box", "a/b/c"]),
        ("trailing #dash- and #slash/ and #both-/", ["dash", "slash", "both"]),
        ("#Café, @cafe, #CAFE.", ["cafe"]),
        ("#2024 and #_ and #-- and #_x", ["2024", "_x"]),
        ("punctuation ends it: #end. #done! (#paren)", ["end", "done"]),
        ("line\n#next\ttab\t@tab", ["next", "tab"]),
        ("non-breaking\u{00A0}#space", ["space"]),
        ("#crème-brûlée", ["creme-brulee"]),
        ("decomposed #cafe\u{301}", ["cafe"]),
        ("emoji #🎉 and #a🎉", ["a"]),
        ("#Straße #STRASSE", ["strasse"]),
    ])
    func findsTheTagsWrittenInText(_ text: String, _ expected: [String]) {
        #expect(Tags.inText(text) == expected, "\(text.debugDescription)")
    }

    @Test func namesAreCanonicalWhateverTheSymbol() {
        #expect(Tags.canonicalName("#Café") == "cafe")
        #expect(Tags.canonicalName("@cafe") == "cafe")
        #expect(Tags.canonicalName(" Idea-Box ") == "idea-box")
        #expect(Tags.canonicalName("#") == nil)
        #expect(Tags.canonicalName("--") == nil)
        #expect(Tags.canonicalName("") == nil)
    }
}
