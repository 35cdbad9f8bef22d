import Foundation
import Testing

@testable import JournalKit

/// A search store that disagrees with the entries is rebuilt, never answered from as if it
/// agreed: restored copies of either file leave one ahead of the other, or built from another
/// history that reached the same change number.
@Suite(.hangGuard) struct IndexStandingTests {
    /// A journal that held "one", then "two": with the copy of its main store taken after "one"
    /// (closed, so its WAL folded back in).
    private func journalWithACopyAfterOne() throws -> (store: TemporaryJournal, main: Data) {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "one"))
        store.close()
        let main = try Data(contentsOf: store.directory.mainStoreURL)
        try store.reopen()
        try store.journal.add(NewEntry(text: "two"))
        return (store, main)
    }

    @Test func aSearchStoreAheadOfTheEntriesIsRebuilt() throws {
        let (store, main) = try journalWithACopyAfterOne()
        try store.journal.add(NewEntry(text: "three"))
        store.close()
        // The entries restored from the copy: the search store has applied changes they lack.
        try main.write(to: store.directory.mainStoreURL)
        let journal = try store.reopen()
        #expect(
            journal.notices.contains { $0.contains("has applied changes the entries' history does not have") },
            "\(journal.notices)")
        #expect(try journal.search("two").total == 0)
        #expect(try journal.search("one").total == 1)
        try store.expectConsistent()
    }

    @Test func aSearchStoreFromAnotherHistoryOfTheSameLengthIsRebuilt() throws {
        let (store, main) = try journalWithACopyAfterOne()
        store.close()
        let search = try Data(contentsOf: store.directory.searchStoreURL)
        // Another history from the same copy: its change 2 is another entry numbered p2.
        try main.write(to: store.directory.mainStoreURL)
        try store.reopen()
        let other = try store.journal.add(NewEntry(text: "different"))
        #expect(other.id.number == 2)
        store.close()
        // The search store of the first history, at the same change number.
        try search.write(to: store.directory.searchStoreURL)
        let journal = try store.reopen()
        #expect(journal.notices.contains { $0.contains("another history of the entries") }, "\(journal.notices)")
        #expect(try journal.search("two").total == 0, "p2's old words must not find its new text")
        #expect(try journal.search("different").total == 1)
        try store.expectConsistent()
    }
}
