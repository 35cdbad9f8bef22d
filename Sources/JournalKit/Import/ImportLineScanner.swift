/// An import line's fields read straight from its bytes, for the lines inputs are made of: one
/// JSON object of ``ImportLine``'s fields whose values are strings, `true`, `false`, `null`
/// or arrays of strings, with JSON's escapes.
///
/// Invariant: where the scanner reads a line, it reads what Foundation's `JSONDecoder` reads
/// from it; anything it is not sure of (a number, an unknown or repeated field, an escaped key,
/// a lone surrogate, a control character, invalid UTF-8, a syntax error) gives nil, and the
/// line goes to `JSONDecoder`, whose fields or error it then has. So this path never decides
/// an error; it exists to spare the common line `JSONDecoder`'s generic decoding.
package struct ImportLineScanner: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// A string's bytes once its escapes are undone; kept for the next string that has some.
    private var unescaped: [UInt8] = []

    /// The line `bytes` as `JSONDecoder` would read it, or nil for `JSONDecoder` to read.
    package static func scan(_ bytes: [UInt8]) -> ImportLine? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = ImportLineScanner(bytes: buffer)
            return scanner.line()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func line() -> ImportLine? {
        var (id, date, text, tags, starred, origin): (String?, String?, String?, [String]?, Bool?, String?)
        var seen: UInt8 = 0
        guard take(.openBrace) else { return nil }
        if !take(.closeBrace) {
            repeat {
                skipSpace()
                guard let key = key(), seen & Self.bit(key) == 0, take(.colon) else { return nil }
                seen |= Self.bit(key)
                skipSpace()
                switch key {
                case .id: guard value(into: &id) else { return nil }
                case .date: guard value(into: &date) else { return nil }
                case .text: guard value(into: &text) else { return nil }
                case .origin: guard value(into: &origin) else { return nil }
                case .tags: guard strings(into: &tags) else { return nil }
                case .tagNames:
                    var names: [String]?
                    guard strings(into: &names) else { return nil }
                case .starred: guard boolean(into: &starred) else { return nil }
                }
            } while take(.comma)
            guard take(.closeBrace) else { return nil }
        }
        skipSpace()
        guard index == bytes.count, let text else { return nil }
        return ImportLine(id: id, date: date, text: text, tags: tags, starred: starred, origin: origin)
    }

    /// A bit of its own for each field, to find one given twice.
    private static func bit(_ field: Entry.Field) -> UInt8 {
        switch field {
        case .id: 1
        case .date: 2
        case .text: 4
        case .tags: 8
        case .tagNames: 16
        case .starred: 32
        case .origin: 64
        }
    }

    // MARK: Values

    /// A string or `null` into `value`; false when the value is neither.
    private mutating func value(into value: inout String?) -> Bool {
        if literal("null") { return true }
        guard let string = string() else { return false }
        value = string
        return true
    }

    /// An array of strings or `null` into `value`.
    private mutating func strings(into value: inout [String]?) -> Bool {
        if literal("null") { return true }
        guard take(.openBracket) else { return false }
        var strings: [String] = []
        if !take(.closeBracket) {
            repeat {
                skipSpace()
                guard let string = string() else { return false }
                strings.append(string)
            } while take(.comma)
            guard take(.closeBracket) else { return false }
        }
        value = strings
        return true
    }

    /// `true`, `false` or `null` into `value`.
    private mutating func boolean(into value: inout Bool?) -> Bool {
        if literal("null") { return true }
        if literal("true") {
            value = true
        } else if literal("false") {
            value = false
        } else {
            return false
        }
        return true
    }

    /// A field name without escapes.
    private mutating func key() -> Entry.Field? {
        guard index < bytes.count, bytes[index] == .quote else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != .quote, bytes[end] != .backslash { end += 1 }
        guard end < bytes.count, bytes[end] == .quote else { return nil }
        index = end + 1
        return Entry.Field(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    /// A string at the current byte, its escapes undone; nil when there is none or it is one
    /// the scanner leaves to `JSONDecoder`.
    private mutating func string() -> String? {
        guard index < bytes.count, bytes[index] == .quote else { return nil }
        index += 1
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case .quote:
                defer { index += 1 }
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            case .backslash:
                unescaped.removeAll(keepingCapacity: true)
                unescaped.append(contentsOf: bytes[start..<index])
                return escapedString()
            case ..<0x20: return nil
            default: index += 1
            }
        }
        return nil
    }

    /// The rest of a string from its first backslash.
    private mutating func escapedString() -> String? {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case .quote: return String(validating: unescaped, as: UTF8.self)
            case ..<0x20: return nil
            case .backslash:
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case .quote, .backslash, .slash: unescaped.append(escape)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    unescaped.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                // The run up to the next quote, backslash or control character, at once.
                var end = index
                while end < bytes.count, bytes[end] != .quote, bytes[end] != .backslash, bytes[end] >= 0x20 { end += 1 }
                unescaped.append(contentsOf: bytes[(index - 1)..<end])
                index = end
            }
        }
        return nil
    }

    /// The scalar of a `\u` escape (its backslash and `u` read), a surrogate pair as one.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let unit = hexUnit() else { return nil }
        switch unit {
        case 0xD800..<0xDC00:
            guard index + 1 < bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                return nil
            }
            index += 2
            guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00))
        case 0xDC00..<0xE000: return nil
        default: return Unicode.Scalar(unit)
        }
    }

    /// Four hexadecimal digits.
    private mutating func hexUnit() -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    // MARK: Structure

    /// Skips JSON's white space: space, tab, line feed, carriage return.
    private mutating func skipSpace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    /// Takes `byte` after white space; false (nothing taken) when another comes first.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Takes the word `word` (`null`, `true`, `false`) when it is next.
    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { return false }
        index += count
        return true
    }
}

extension UInt8 {
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let closeBracket = UInt8(ascii: "]")
}
