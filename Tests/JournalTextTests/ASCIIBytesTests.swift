import Testing

@testable import JournalText

@Suite struct ASCIIBytesTests {
    @Test func tellsASCIIFromOtherText() {
        for (text, isASCII) in [
            ("", true), ("plain text, 12345678", true), ("café", false), ("abcdefgh\u{80}", false),
            ("é, then seven more", false),
        ] {
            var text = text
            #expect(text.withUTF8 { ASCIIBytes.areASCII($0) } == isASCII)
        }
    }
}
