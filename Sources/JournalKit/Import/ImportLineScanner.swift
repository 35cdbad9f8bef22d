/// An import line's fields read straight from its bytes, for the lines inputs are made of: one
/// JSON object of ``ImportLine``'s fields whose values are strings, `true`, `false`, `null`
/// or arrays of strings, with JSON's escapes.
///
/// Invariant: where the scanner reads a line, it reads what Foundation's `JSONDecoder` reads
/// from it; anything it is not sure of (a number, an unknown or repeated field, an escaped key,
/// a lone surrogate, a control character, invalid UTF-8, a syntax error) gives nil, and the
/// line goes to `JSONDecoder`, whose fields or error it then has. So this path never decides
/// an error; it exists to spare the common line `JSONDecoder`'s generic decoding.
package enum ImportLineScanner {
    /// The line `bytes` as `JSONDecoder` would read it, or nil for `JSONDecoder` to read.
    package static func scan(_ bytes: [UInt8]) -> ImportLine? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONByteReader(buffer)
            return line(&reader)
        }
    }

    private static func line(_ reader: inout JSONByteReader) -> ImportLine? {
        var (id, date, text, tags, starred, origin): (String?, String?, String?, [String]?, Bool?, String?)
        var seen: UInt8 = 0
        let read = reader.object { name, reader in
            guard let field = Entry.Field(rawValue: name), seen & bit(field) == 0 else { return false }
            seen |= bit(field)
            switch field {
            case .id: return reader.optionalString().map { id = $0 } != nil
            case .date: return reader.optionalString().map { date = $0 } != nil
            case .text: return reader.optionalString().map { text = $0 } != nil
            case .origin: return reader.optionalString().map { origin = $0 } != nil
            case .tags: return reader.array({ $0.string() }).map { tags = $0 } != nil
            case .tagNames: return reader.array({ $0.string() }) != nil
            case .starred: return reader.optionalBoolean().map { starred = $0 } != nil
            }
        }
        guard read, reader.isAtEnd(), let text else { return nil }
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
}
