import Foundation

/// One line of an import, an entry's JSON (``Entry/Field``): `{"id": "x-journal://…",
/// "date": "2024-05-01T08:30:00Z", "text": "…", "tags": ["…"], "starred": true,
/// "origin": "dayone:…"}`, all but `text` optional; `id` is the entry's URI in the journal it
/// was exported from, `origin` its identity in the application it was first imported from.
package struct ImportLine: Decodable, Equatable {
    let id: String?
    let date: String?
    let text: String
    let tags: [String]?
    let starred: Bool?
    let origin: String?

    init(id: String?, date: String?, text: String, tags: [String]?, starred: Bool?, origin: String?) {
        (self.id, self.date, self.text, self.tags, self.starred, self.origin) = (id, date, text, tags, starred, origin)
    }

    /// Reads the fields of ``Entry/Field`` a line may have; `tag_names` is not read (the tags'
    /// names follow from their forms).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Entry.Field.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        text = try container.decode(String.self, forKey: .text)
        tags = try container.decodeIfPresent([String].self, forKey: .tags)
        starred = try container.decodeIfPresent(Bool.self, forKey: .starred)
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
    }

    /// One decoder for every line, on every thread (it is `Sendable` and its options are
    /// fixed), rather than one made for each line.
    private static let decoder = JSONDecoder()

    /// What a value of `key` must be, for the message when it is not.
    private static func expected(for key: String) -> String {
        switch Entry.Field(stringValue: key) {
        case .tags: "an array of strings"
        case .starred: "true or false"
        case .id, .date, .text, .tagNames, .origin, nil: "a string"
        }
    }

    /// The entry a line describes, or an error naming the line.
    package static func parse(_ line: NumberedLine, defaultDate: JournalDate) -> Result<NewEntry, JournalError> {
        parseWithSource(line, defaultDate: defaultDate).map(\.entry)
    }

    /// The entry a line describes, the identity it had where it was exported from if the line
    /// says, and whether the line gave its date; or an error naming the line.
    package static func parseWithSource(
        _ line: NumberedLine, defaultDate: JournalDate
    ) -> Result<(entry: NewEntry, source: EntryID?, dated: Bool), JournalError> {
        func failure(_ message: String) -> Result<(entry: NewEntry, source: EntryID?, dated: Bool), JournalError> {
            .failure(JournalError.invalidInput(message).onLine(line.number))
        }
        let decoded: ImportLine
        if let scanned = ImportLineScanner.scan(line.bytes) {
            decoded = scanned
        } else if String(validating: line.bytes, as: UTF8.self) == nil {
            return failure("invalid UTF-8")
        } else {
            do {
                decoded = try decoder.decode(ImportLine.self, from: Data(line.bytes))
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
        var source: EntryID?
        if let id = decoded.id {
            guard let parsed = EntryID(uri: id) else { return failure("\"id\" \"\(id)\" is not an entry URI") }
            source = parsed
        }
        if decoded.origin?.isEmpty == true { return failure("\"origin\" is empty") }
        let entry = NewEntry(
            date: date, text: decoded.text, tags: decoded.tags ?? [], starred: decoded.starred ?? false,
            origin: decoded.origin)
        return .success((entry, source, decoded.date != nil))
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable, Codable {
    /// Entries written (by this run, and by the earlier runs it went on from: ``resumed``).
    public let count: Int
    /// Their identifiers, first and last (one import is a contiguous run).
    public let ids: ClosedRange<Int64>?
    /// Bytes of input read.
    public let bytes: Int
    /// Entries left out because the journal holds them already: of an origin it holds, or,
    /// with at least their star and tags, exported from it (and still there with the same date
    /// and text) or with the same date and text (for an entry whose input gives its date).
    /// Importing the same file twice adds nothing the second time.
    public let alreadyPresent: Int
    /// Entries left out because they have no text: jrnl and Day One allow them, a journal
    /// entry needs text.
    public let empty: Int
    /// Of the entries written, those an earlier run of the same import wrote before it was
    /// interrupted (``PendingImport``): this run went on from there.
    public let resumed: Int
}
