import Foundation
import JournalKit

/// Which journal entry holds which note: a JSON file beside the journal's stores, written whole
/// or not at all.
struct Catalog {
    private let file: URL
    /// Note paths, relative to the folder, and their entries.
    private(set) var entries: [String: EntryID]

    /// What one synchronisation did.
    struct Changes {
        var added = 0
        var updated = 0
        var removed = 0
        var unchanged = 0
        /// Files that could not be read as UTF-8 text, with why.
        var skipped: [String] = []
    }

    init(in store: StoreDirectory) throws {
        file = store.url.appendingPathComponent("note-index.json")
        if let data = FileManager.default.contents(atPath: file.path) {
            entries = try JSONDecoder().decode([String: EntryID].self, from: data)
        } else {
            entries = [:]
        }
    }

    var pathsByEntry: [EntryID: String] {
        Dictionary(entries.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Makes the journal hold exactly the notes of `folder`: a new file is added, a changed
    /// one (text or modification time) edited, and the entry of a removed one deleted.
    mutating func synchronize(folder: URL, into journal: Journal) async throws -> Changes {
        var changes = Changes()
        var seen = Set<String>()
        for note in try Self.notes(in: folder) {
            let path = String(note.path.dropFirst(folder.path.count + 1))
            guard let data = FileManager.default.contents(atPath: note.path),
                let text = String(validating: data, as: UTF8.self),
                !text.allSatisfy(\.isWhitespace)
            else {
                changes.skipped.append("\(path): empty or not UTF-8 text")
                continue
            }
            seen.insert(path)
            let modified =
                try note.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? Date()
            let date = JournalDate(modified)
            if let id = entries[path], let current = try? journal.entry(id) {
                if current.text == text && current.date == date {
                    changes.unchanged += 1
                } else {
                    try await journal.edit(id, text: text, date: date)
                    changes.updated += 1
                }
            } else {
                entries[path] = try await journal.add(NewEntry(date: date, text: text)).id
                changes.added += 1
            }
        }
        for (path, id) in entries where !seen.contains(path) {
            // An entry deleted from the journal by other means leaves nothing to remove.
            if (try? journal.entry(id)) != nil { try await journal.delete(id) }
            entries[path] = nil
            changes.removed += 1
        }
        return changes
    }

    /// Writes the catalog to a temporary file, then renames it over the old one.
    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(entries).write(to: file, options: .atomic)
    }

    /// The note files under `folder`, skipping hidden files and folders (the journal's own).
    private static func notes(in folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path]) }
        return walker.compactMap { $0 as? URL }
            .filter { ["md", "markdown", "txt"].contains($0.pathExtension.lowercased()) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .map(\.standardizedFileURL)
            .sorted { $0.path < $1.path }
    }
}
