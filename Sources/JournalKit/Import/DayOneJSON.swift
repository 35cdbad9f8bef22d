import Foundation
import JournalText

/// Day One's JSON export (`Journal.json`): `{"metadata": {…}, "entries": [{"uuid",
/// "creationDate": "2024-05-01T07:30:00Z", "text", "tags": [], "starred": false, …}, …]}`.
///
/// The text is Markdown in which Day One escapes punctuation; the escapes are undone
/// (``MarkdownEscapes``) and media references (`![](dayone-moment://…)`) kept as text. Tags
/// are given to the entry. Each entry's origin is `dayone:` and its UUID, so importing it again
/// adds nothing; an entry without a UUID is the same as one with its date and text.
package enum DayOneJSON {
    private struct Document: Decodable {
        let entries: [Entry]
    }

    private struct Entry: Decodable {
        let uuid: String?
        let creationDate: String?
        let text: String?
        let tags: [String]?
        let starred: Bool?
    }

    /// The entries of `data`, in the order written; an entry with no text is nil. `name` (the
    /// file's name in an archive) starts each entry's location.
    package static func entries(in data: Data, name: String? = nil) throws(JournalError) -> [ImportedEntry?] {
        let prefix = name.map { "\($0): " } ?? ""
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw .invalidInput(
                prefix + DocumentError.message(error, format: "Day One JSON", entry: { "entry \($0 + 1)" }))
        }
        var entries: [ImportedEntry?] = []
        for (index, item) in document.entries.enumerated() {
            let location = prefix + "entry \(index + 1)" + (item.uuid.map { " (uuid \($0))" } ?? "")
            guard let written = item.creationDate else { throw .invalidInput("\(location): missing \"creationDate\"") }
            guard let date = JournalDate(iso8601: written) else {
                throw .invalidInput(
                    "\(location): bad \"creationDate\" \"\(written)\" (expected ISO 8601, like 2024-05-01T07:30:00Z)")
            }
            if let uuid = item.uuid, uuid.isAllWhiteSpace {
                throw .invalidInput("\(location): empty \"uuid\"")
            }
            let text = MarkdownEscapes.removed(from: item.text ?? "")
            guard !text.isAllWhiteSpace else {
                entries.append(nil)
                continue
            }
            entries.append(
                ImportedEntry(
                    entry: NewEntry(
                        date: date, text: text, tags: item.tags ?? [], starred: item.starred ?? false,
                        origin: item.uuid.map { "dayone:\($0)" }),
                    sameDateAndText: item.uuid == nil
                        ? DateAndTextMatch(precision: 1, key: \.trimmingTrailingWhiteSpace) : nil,
                    location: location))
        }
        return entries
    }
}
