import Foundation
import JournalText

/// jrnl's JSON export: `{"tags": {"@name": count, …}, "entries": [{"title", "body", "date":
/// "2024-05-01", "time": "09:30", "tags": ["@name"], "starred": false}, …]}`.
///
/// An entry's text is its title, then its body on the lines after it (jrnl splits the text it
/// was given at the first line break, or after the first sentence). Its tags are in its text,
/// where the journal finds them; a tag jrnl read differently (jrnl allows `+` and `*` in a
/// tag) is kept as a tag given to the entry. The date is local (``JrnlDate``), to the minute.
package enum JrnlJSON {
    private struct Document: Decodable {
        let entries: [Entry]
    }

    private struct Entry: Decodable {
        let title: String?
        let body: String?
        let date: String
        let time: String?
        let tags: [String]?
        let starred: Bool?
    }

    /// The entries of `data`, in the order written; an entry with no text is nil.
    package static func entries(in data: Data, timeZone: TimeZone = .current) throws(JournalError) -> [ImportedEntry?] {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw .invalidInput(DocumentError.message(error, format: "jrnl JSON", entry: { "entry \($0 + 1)" }))
        }
        var entries: [ImportedEntry?] = []
        for (index, item) in document.entries.enumerated() {
            let location = "entry \(index + 1)"
            let written = "\(item.date) \(item.time ?? "")".trimmingWhiteSpace
            guard let date = JrnlDate(written, timeZone: timeZone) else {
                throw .invalidInput(
                    "\(location): bad date \"\(written)\" (expected \"date\": \"2024-05-01\", \"time\": \"09:30\")")
            }
            let title = item.title ?? ""
            let body = (item.body ?? "").trimmingTrailingWhiteSpace
            let text = body.isEmpty ? title.trimmingTrailingWhiteSpace : title + "\n" + body
            guard !text.isAllWhiteSpace else {
                entries.append(nil)
                continue
            }
            let inText = Set(Tags.names(inText: text))
            let given = (item.tags ?? []).filter { tag in Tags.canonicalName(tag).map { !inText.contains($0) } ?? false
            }
            entries.append(
                ImportedEntry(
                    entry: NewEntry(date: date.date, text: text, tags: given, starred: item.starred ?? false),
                    sameDateAndText: JrnlText.match(date), location: location))
        }
        return entries
    }
}
