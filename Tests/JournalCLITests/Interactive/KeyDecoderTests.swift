import Testing

@testable import JournalCLI

/// Bytes as terminals send them, split anywhere, become the keys a user pressed.
@Suite struct KeyDecoderTests {
    private func keys(_ chunks: [[UInt8]], flushing: Bool = false) -> [Key] {
        var decoder = KeyDecoder()
        var keys = chunks.flatMap { decoder.feed($0) }
        if flushing { keys += decoder.flush() }
        return keys
    }

    @Test func sequencesAndCharactersSplitAnywhereDecodeAsWhole() {
        let bytes = Array("é東\u{1B}[A\u{1B}OB\u{1B}[6~🎉\u{1B}[Z".utf8)
        let expected: [Key] = [.text("é東"), .up, .down, .pageDown, .text("🎉"), .backTab]
        #expect(keys([bytes]) == expected)
        for split in 1..<bytes.count {
            #expect(keys([Array(bytes[..<split]), Array(bytes[split...])]).joinedText == expected, "split at \(split)")
        }
    }

    @Test func controlKeysAsInRawMode() {
        #expect(
            keys([[0x0D, 0x0A, 0x09, 0x7F, 0x08, 0x03, 0x15, 0x05, 0x00]]) == [
                .enter, .control("j"), .tab, .backspace, .backspace, .control("c"), .control("u"), .control("e"),
            ])
    }

    @Test func aLoneEscapeIsAKeyOnlyOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(keys([[0x1B, 0x1B]], flushing: true) == [.escape, .escape])
        // Alt with a key is no binding: dropped rather than taken as Escape (quit).
        #expect(keys([[0x1B, UInt8(ascii: "x")]], flushing: true) == [])
        // A sequence cut short and never finished is dropped, not typed.
        #expect(keys([[0x1B, UInt8(ascii: "["), UInt8(ascii: "1")]], flushing: true) == [])
    }

    @Test func aBracketedPasteIsOneTextWithItsLinesJoined() {
        let paste = Array("\u{1B}[200~crème\r\nbrûlée\t\u{07}x\u{1B}[201~".utf8)
        #expect(keys([paste]) == [.text("crème  brûlée x")])
        for split in 1..<paste.count {
            #expect(
                keys([Array(paste[..<split]), Array(paste[split...])]) == [.text("crème  brûlée x")],
                "split at \(split)")
        }
        // A quiet spell in the middle of a paste doesn't end it.
        for split in 6..<paste.count {
            var decoder = KeyDecoder()
            var decoded = decoder.feed(paste[..<split])
            decoded += decoder.flush()
            decoded += decoder.feed(paste[split...])
            #expect(decoded == [.text("crème  brûlée x")], "split at \(split)")
        }
    }

    @Test func invalidUTF8AndC1ControlsAreNeverText() {
        #expect(keys([[0xFF, 0xC3, 0x28, 0x61, 0xC2, 0x9B, 0x62]]) == [.text("(ab")])
    }
}

extension [Key] {
    /// Adjacent texts joined, as the decoder delivers them.
    fileprivate var joinedText: [Key] {
        reduce(into: []) { keys, key in
            if case .text(let more) = key, case .text(let text)? = keys.last {
                keys[keys.count - 1] = .text(text + more)
            } else {
                keys.append(key)
            }
        }
    }
}
