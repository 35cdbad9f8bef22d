/// One line for a person from a JSON document that could not be decoded: the format, the entry
/// (by the caller's way of naming it) and the field concerned.
enum DocumentError {
    /// `error`, thrown decoding a document of `format`, as a message; `entry` names the entry
    /// at an index of the document's `entries`.
    static func message(_ error: any Error, format: String, entry: (Int) -> String) -> String {
        guard let decoding = error as? DecodingError else { return "\(format): \(error)" }
        func place(_ path: [any CodingKey]) -> String {
            var words: [String] = []
            var rest = path[...]
            if rest.first?.stringValue == "entries", let index = rest.dropFirst().first?.intValue {
                words.append(entry(index))
                rest = rest.dropFirst(2)
            }
            if !rest.isEmpty {
                words.append(
                    "\"" + rest.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "\"")
            }
            return words.isEmpty ? "the document" : words.joined(separator: ", ")
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "\(format): \(place(context.codingPath)): missing \"\(key.stringValue)\""
        case .valueNotFound(_, let context):
            return "\(format): \(place(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            return "\(format): \(place(context.codingPath)) must be \(describe(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "\(format): malformed JSON" : "\(format): \(place(context.codingPath)) is malformed"
        @unknown default:
            return "\(format): \(decoding)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String: Any].Type: "an object"
        default: type is any Collection.Type ? "an array" : "an object"
        }
    }
}
