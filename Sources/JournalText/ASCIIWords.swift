/// The words of a text made of ASCII bytes only, found without ICU: the same words, at the same
/// places, as ``WordBreaker``'s ICU iterator keeps (Unicode's word boundary rules as ICU's root
/// locale applies them, restricted to ASCII), with no iterator to set up and no UTF-16 to
/// make (what the ICU path costs is in `Benchmarks/README.md`).
///
/// Invariant: for every ASCII text, ``forEachWord(in:_:)`` calls its body with exactly the byte
/// ranges ICU's word break iterator reports with a word status (number or letter), in order.
/// `ASCIIWordsTests` checks this against ICU on texts built to meet every rule.
///
/// Within ASCII, a word is a run of letters, digits and underscores (rules WB5, WB8–WB10, WB13a
/// and WB13b join every pair of them), which a single `.` or `'` carries on between two letters
/// or between two digits (WB6, WB7, WB11, WB12), as `,` and `;` do between two digits. ICU's root
/// locale counts `@` as a letter (e-mail addresses stay one word) and leaves `:` out of the
/// letter joiners; a lone `_` is no word, two or more are one. Every other byte (spaces,
/// controls, the other punctuation and symbols) ends a word and is never in one.
enum ASCIIWords {
    /// Calls `body` with each word of `utf8`, which holds ASCII bytes only, as a slice of it.
    static func forEachWord(in utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let count = utf8.count
        var index = 0
        while index < count {
            guard Class.of(utf8[index]).isInWord else {
                index += 1
                continue
            }
            let start = index
            index += 1
            while index < count {
                let next = Class.of(utf8[index])
                if next.isInWord {
                    index += 1
                    continue
                }
                // A joiner carries the word on only between two letters, or two digits.
                guard next == .joinsLettersAndDigits || next == .joinsDigits, index + 1 < count else { break }
                let (before, after) = (Class.of(utf8[index - 1]), Class.of(utf8[index + 1]))
                guard before == after, before == .digit || (before == .letter && next == .joinsLettersAndDigits)
                else { break }
                index += 2
            }
            // A lone `_` is no word; two or more are one.
            if index - start > 1 || Class.of(utf8[start]) != .underscore {
                body(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            }
        }
    }

    /// What a byte is to the word rules.
    private enum Class: UInt8 {
        /// A letter: `a`–`z`, `A`–`Z`, and `@`, which ICU's root locale counts as one.
        case letter
        case digit
        case underscore
        /// `.` and `'`: inside a word between two letters or two digits.
        case joinsLettersAndDigits
        /// `,` and `;`: inside a word between two digits.
        case joinsDigits
        /// Anything else.
        case other

        /// Letters, digits and underscores join one another into a word.
        var isInWord: Bool { self == .letter || self == .digit || self == .underscore }

        static func of(_ byte: UInt8) -> Class { table[Int(byte)] }

        private static let table: [Class] = (0..<128).map { value in
            switch UInt8(value) {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "@"):
                .letter
            case UInt8(ascii: "0")...UInt8(ascii: "9"): .digit
            case UInt8(ascii: "_"): .underscore
            case UInt8(ascii: "."), UInt8(ascii: "'"): .joinsLettersAndDigits
            case UInt8(ascii: ","), UInt8(ascii: ";"): .joinsDigits
            default: .other
            }
        }
    }
}
