import Crypto
import Foundation
import JournalText

/// What sync carries of an entry: everything a user gives it (the text as written, its date,
/// the tags given besides those in the text, its star). Tags written in the text, and the
/// canonical text, follow from the text on every device.
struct SyncedState: Codable, Equatable, Sendable {
    /// Microseconds since 1970, UTC.
    var date: Int64
    var text: String
    /// The given tags, by name.
    var tags: [Tag]
    var starred: Bool

    init(date: Int64, text: String, tags: [Tag], starred: Bool) {
        self.date = date
        self.text = text
        self.tags = tags.sorted { $0.name < $1.name }
        self.starred = starred
    }

    /// A digest of the state, to tell whether an entry changed since sync last wrote or read it.
    var digest: Data {
        var hash = SHA256()
        // Each field's length before it, so that no two states give one sequence of bytes.
        func add(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                var length = String(bytes.count) + ":"
                length.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
                hash.update(bufferPointer: UnsafeRawBufferPointer(bytes))
            }
        }
        add(String(date))
        add(text)
        add(starred ? "1" : "0")
        for tag in tags {
            add(tag.name)
            add(tag.written)
        }
        return Data(hash.finalize())
    }
}

/// One version of one entry, as a device writes it into the folder it syncs through the entry's URI (its
/// identity on every device), the version, the version it was made from (none for the entry's
/// first), and the entry's state then, or nothing when the version deletes it.
package struct SyncRecord: Codable, Equatable, Sendable {
    var entry: String
    var version: String
    var base: String?
    /// The other versions merged into the one it was made from (``base``), when that one was
    /// a merge of several heads.
    var merged: [String]?
    var state: SyncedState?

    /// Every version it was made from.
    var parents: [String] { (base.map { [$0] } ?? []) + (merged ?? []) }

    /// Whether the record's fields are what a device writes: an entry URI in its written form
    /// (``EntryID/uri``), versions in their form, and a state an entry may have (a text
    /// ``NewEntry`` takes, tags as their names say).
    var isWellFormed: Bool {
        guard EntryID(writtenURI: entry) != nil, SyncVersion(version) != nil,
            parents.allSatisfy({ SyncVersion($0) != nil }), merged.map({ base != nil && !$0.isEmpty }) ?? true
        else { return false }
        guard let state else { return true }
        return (try? NewEntry.validate(text: state.text)) != nil
            && state.tags.allSatisfy { Tags.given($0.written) == $0 }
    }
}
