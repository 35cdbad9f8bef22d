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
        #expect(Tags.names(inText: text) == expected, "\(text.debugDescription)")
    }

    /// Each tag keeps the form it first appears in, without its sign, composed.
    @Test(arguments: [
        ("#Café, @cafe, #CAFE.", [JournalText.Tag(name: "cafe", written: "Café")]),
        ("@Ana meets #ana", [JournalText.Tag(name: "ana", written: "Ana")]),
        ("decomposed #Cafe\u{301}", [JournalText.Tag(name: "cafe", written: "Café")]),
        (
            "#Crème-Brûlée- and #Straße",
            [
                JournalText.Tag(name: "creme-brulee", written: "Crème-Brûlée"),
                JournalText.Tag(name: "strasse", written: "Straße"),
            ]
        ),
        ("#東京/Shibuya", [JournalText.Tag(name: "東京/shibuya", written: "東京/Shibuya")]),
    ])
    func keepsTheFormATagIsWrittenIn(_ text: String, _ expected: [JournalText.Tag]) {
        #expect(Tags.inText(text) == expected, "\(text.debugDescription)")
    }

    @Test func aGivenTagKeepsItsFormWithoutSignOrSpace() {
        #expect(Tags.given(" #Élan ") == JournalText.Tag(name: "elan", written: "Élan"))
        #expect(Tags.given("@Zoe\u{308}") == JournalText.Tag(name: "zoe", written: "Zoë"))
        #expect(Tags.given("#-") == nil)
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
