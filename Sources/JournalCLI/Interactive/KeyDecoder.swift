/// A key as the full-screen search understands it.
enum Key: Equatable {
    /// Printable text: typed, or pasted (white space of a paste becomes spaces).
    case text(String)
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, tab, backTab, backspace, delete, escape
    /// Ctrl with a letter ("c" for Ctrl-C), other than those named above (Ctrl-I is Tab,
    /// Ctrl-M Enter, Ctrl-H Backspace). Ctrl-J stays itself: in raw mode Enter sends Ctrl-M.
    case control(Character)
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, the escape
/// sequences of arrows and paging keys (CSI and SS3 forms), and bracketed pastes.
///
/// Bytes may arrive split anywhere; what is incomplete waits for the next ``feed(_:)``. A lone
/// Escape can't be told from the start of a sequence until no more bytes come: the reader calls
/// ``flush()`` after a short quiet spell to take it as the Escape key. Invalid UTF-8 and
/// unknown sequences are dropped, never passed on as text.
struct KeyDecoder {
    private var pending: [UInt8] = []
    private var pasting: [UInt8]?

    /// Whether bytes are waiting for more (an Escape, a split sequence or character).
    var isWaiting: Bool { !pending.isEmpty }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = decode(at: index) else { break }
            if let key { Self.append(key, to: &keys) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// What is waiting, taken as typed: a lone Escape is the Escape key; the rest of a sequence
    /// that never completed is dropped. A paste under way keeps waiting for its end.
    mutating func flush() -> [Key] {
        guard pasting == nil else { return [] }
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// The key at `index` and how many bytes it took; nil when more bytes are needed; a nil key
    /// for bytes that mean nothing.
    private mutating func decode(at index: Int) -> (Key?, Int)? {
        if pasting != nil { return decodePaste(at: index) }
        let byte = pending[index]
        switch byte {
        case 0x1B: return decodeEscape(at: index)
        case 0x0D: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        default: return decodeCharacter(at: index)
        }
    }

    private func decodeCharacter(at index: Int) -> (Key?, Int)? {
        let lead = pending[index]
        let length =
            switch lead {
            case 0x20..<0x80: 1
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        guard length > 0 else { return (nil, 1) }
        guard index + length <= pending.count else { return nil }
        let bytes = pending[index..<index + length]
        guard let text = String(validating: bytes, as: UTF8.self) else { return (nil, 1) }
        guard let scalar = text.unicodeScalars.first, !(0x80...0x9F).contains(scalar.value) else {
            return (nil, length)
        }
        return (.text(text), length)
    }

    /// ESC alone, ESC [ … (CSI) or ESC O x (SS3).
    private mutating func decodeEscape(at index: Int) -> (Key?, Int)? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            var end = index + 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
            guard end < pending.count else { return nil }
            let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
            let length = end - index + 1
            switch (pending[end], parameters) {
            case (UInt8(ascii: "A"), _): return (.up, length)
            case (UInt8(ascii: "B"), _): return (.down, length)
            case (UInt8(ascii: "C"), _): return (.right, length)
            case (UInt8(ascii: "D"), _): return (.left, length)
            case (UInt8(ascii: "H"), _): return (.home, length)
            case (UInt8(ascii: "F"), _): return (.end, length)
            case (UInt8(ascii: "Z"), _): return (.backTab, length)
            case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
            case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
            case (UInt8(ascii: "~"), "3"): return (.delete, length)
            case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
            case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
            case (UInt8(ascii: "~"), "200"):
                pasting = []
                return (nil, length)
            default: return (nil, length)
            }
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return nil }
            let key: Key? =
                switch pending[index + 2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                default: nil
                }
            return (key, 3)
        case 0x1B:
            // Escape pressed twice: the first is a key of its own.
            return (.escape, 1)
        default:
            // Alt with a key: not a binding here; drop both rather than quit on Alt-x.
            return (nil, 2)
        }
    }

    /// Bytes of a bracketed paste up to its end marker, as one text.
    private mutating func decodePaste(at index: Int) -> (Key?, Int)? {
        let end: [UInt8] = Array("\u{1B}[201~".utf8)
        var cursor = index
        while cursor < pending.count {
            if pending[cursor] == 0x1B {
                guard cursor + end.count <= pending.count else { break }
                if Array(pending[cursor..<cursor + end.count]) == end {
                    let pasted = (pasting ?? []) + pending[index..<cursor]
                    pasting = nil
                    return (Self.pastedText(pasted), cursor - index + end.count)
                }
            }
            cursor += 1
        }
        pasting?.append(contentsOf: pending[index..<cursor])
        return cursor > index ? (nil, cursor - index) : nil
    }

    /// A paste as query text: invalid UTF-8 replaced, line breaks and tabs as spaces, other
    /// control characters dropped.
    private static func pastedText(_ bytes: [UInt8]) -> Key? {
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: scalars.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: scalars.append(scalar)
            }
        }
        return scalars.isEmpty ? nil : .text(String(scalars))
    }

    /// Appends `key`, joining runs of text into one key.
    private static func append(_ key: Key, to keys: inout [Key]) {
        if case .text(let more) = key, case .text(let text)? = keys.last {
            keys[keys.count - 1] = .text(text + more)
        } else {
            keys.append(key)
        }
    }
}
