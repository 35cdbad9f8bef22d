/// JSON's values read straight from a line's bytes, for the scanners that spare the lines a
/// program writes `JSONDecoder`'s generic decoding (``ImportLineScanner``, ``SyncLineScanner``).
///
/// Invariant: each read gives what `JSONDecoder` gives for the value it reads, or nil and the
/// line is left to `JSONDecoder`: nil for anything it is not sure of (a lone surrogate, a
/// control character, invalid UTF-8, an escaped field name, a number that is not a plain
/// integer of 64 bits). A nil leaves the reader anywhere in the line.
struct JSONByteReader: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// A string's bytes once its escapes are undone; kept for the next string that has some.
    private var unescaped: [UInt8] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether nothing but white space is left.
    mutating func isAtEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    // MARK: Structure

    /// Takes `byte` after white space; false (nothing taken) when another comes first.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads an object's members: calls `member` with each one's name, the reader at its value,
    /// which `member` reads (false: not sure of it). False unless the object is whole.
    mutating func object(_ member: (_ name: String, _ reader: inout JSONByteReader) -> Bool) -> Bool {
        guard take(.openBrace) else { return false }
        guard !take(.closeBrace) else { return true }
        repeat {
            guard let name = key(), take(.colon) else { return false }
            skipSpace()
            guard member(name, &self) else { return false }
        } while take(.comma)
        return take(.closeBrace)
    }

    /// Reads an array's elements with `element` (false: not sure of one); nil for `null`.
    mutating func array<Element>(_ element: (inout JSONByteReader) -> Element?) -> [Element]?? {
        if literal("null") { return .some(nil) }
        guard take(.openBracket) else { return nil }
        var elements: [Element] = []
        if !take(.closeBracket) {
            repeat {
                skipSpace()
                guard let next = element(&self) else { return nil }
                elements.append(next)
            } while take(.comma)
            guard take(.closeBracket) else { return nil }
        }
        return .some(elements)
    }

    /// Takes the word `word` (`null`, `true`, `false`) when it is next.
    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { return false }
        index += count
        return true
    }

    // MARK: Values

    /// A string or `null` (`.some(nil)`); nil when the value is neither.
    mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { .some($0) }
    }

    /// `true` or `false`; nil for anything else.
    mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// `true`, `false` or `null` (`.some(nil)`).
    mutating func optionalBoolean() -> Bool?? {
        if literal("null") { return .some(nil) }
        return boolean().map { .some($0) }
    }

    /// An integer written plainly (an optional minus, digits without a leading zero) within
    /// `Int64`'s range.
    mutating func integer() -> Int64? {
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            let (tens, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = tens.addingReportingOverflow(UInt64(digit))
            guard !overflow, !overflowAgain else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent follows: not a plain integer.
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        if negative {
            return magnitude > 0 && magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A field name without escapes.
    private mutating func key() -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == .quote else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != .quote, bytes[end] != .backslash { end += 1 }
        guard end < bytes.count, bytes[end] == .quote else { return nil }
        index = end + 1
        return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// A string at the current byte, its escapes undone; nil when there is none or it is one
    /// left to `JSONDecoder`.
    mutating func string() -> String? {
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

    /// Skips JSON's white space: space, tab, line feed, carriage return.
    private mutating func skipSpace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
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
