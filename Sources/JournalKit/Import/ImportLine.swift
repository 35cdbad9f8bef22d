import Foundation

/// One line of an import: `{"date": "2024-05-01T08:30:00Z", "text": "…", "tags": ["…"],
/// "starred": true}`, all but `text` optional.
package struct ImportLine: Decodable {
    let date: String?
    let text: String
    let tags: [String]?
    let starred: Bool?

    /// What a value of `key` must be, for the message when it is not.
    private static func expected(for key: String) -> String {
        switch key {
        case "tags": "an array of strings"
        case "starred": "true or false"
        default: "a string"
        }
    }

    /// The entry a line describes, or an error naming the line.
    package static func parse(_ line: NumberedLine, defaultDate: JournalDate) -> Result<NewEntry, JournalError> {
        func failure(_ message: String) -> Result<NewEntry, JournalError> {
            .failure(.invalidInput("line \(line.number): \(message)", line: line.number))
        }
        guard String(validating: line.bytes, as: UTF8.self) != nil else {
            return failure("invalid UTF-8")
        }
        let decoded: ImportLine
        do {
            decoded = try JSONDecoder().decode(ImportLine.self, from: Data(line.bytes))
        } catch DecodingError.keyNotFound(let key, _) {
            return failure("missing \"\(key.stringValue)\"")
        } catch DecodingError.valueNotFound(_, let context) {
            return failure("\"\(context.codingPath.first?.stringValue ?? "value")\" is null")
        } catch DecodingError.typeMismatch(_, let context) {
            guard let key = context.codingPath.first?.stringValue else { return failure("expected a JSON object") }
            return failure("\"\(key)\" must be \(expected(for: key))")
        } catch {
            return failure("malformed JSON")
        }
        var date = defaultDate
        if let text = decoded.date {
            guard let parsed = JournalDate(iso8601: text) else {
                return failure("bad date \"\(text)\" (expected ISO 8601, like 2024-05-01T08:30:00Z)")
            }
            date = parsed
        }
        do {
            try NewEntry.validate(text: decoded.text)
        } catch {
            return failure(error.message)
        }
        return .success(NewEntry(date: date, text: decoded.text, tags: decoded.tags ?? [], starred: decoded.starred ?? false))
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable, Codable {
    /// Entries written.
    public let count: Int
    /// Their identifiers, first and last (one import is a contiguous run).
    public let ids: ClosedRange<Int64>?
    /// Bytes of input read.
    public let bytes: Int
}
