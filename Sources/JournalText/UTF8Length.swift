/// The length of a UTF-8 sequence from its lead byte, for walking valid UTF-8 (a Swift
/// string's) a code point at a time without decoding it.
enum UTF8Length {
    static func ofSequence(startingWith lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
