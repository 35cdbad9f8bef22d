/// How the models that programs exchange as text (an entry's URI, a date in ISO 8601) are
/// encoded: as one string, read back with the type's own parser.
enum StringCoding {
    static func encode(_ text: String, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The value `parse` reads from the decoder's string; a string it refuses is corrupt data
    /// that is not `expected`.
    static func decode<T>(from decoder: any Decoder, expected: String, _ parse: (String) -> T?) throws -> T {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not \(expected)")
        }
        return value
    }
}
