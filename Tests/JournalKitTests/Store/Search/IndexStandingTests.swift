import Foundation
import Testing

@testable import JournalKit

/// A search store that disagrees with the entries is never answered from as if it agreed. One
/// restored from a copy, older or built from another history that reached the same change
/// number, is rebuilt. One ahead of the entries is evidence that the entries' store lost
/// changes that were written: that loss is reported, entry by entry, and nothing is written
/// until the user accepts it (a reindex).
@Suite(.hangGuard) struct IndexStandingTests {
    /// A journal that held "one", then "two": with copies of its stores taken after "one"
    /// (closed, so their WALs folded back in).
    private func journalWithCopiesAfterOne() throws -> (store: TemporaryJournal, main: Data, search: Data) {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "one"))
        store.close()
        let main = try Data(contentsOf: store.directory.mainStoreURL)
        let search = try Data(contentsOf: store.directory.searchStoreURL)
        try store.reopen()
        try store.journal.add(NewEntry(text: "two"))
        return (store, main, search)
    }

    @Test func aSearchStoreAheadOfTheEntriesReportsWhatTheyLost() throws {
        let (store, main, _) = try journalWithCopiesAfterOne()
        try store.journal.add(NewEntry(text: "three #picnic"))
        store.close()
        // The entries restored from the copy: the search store has applied changes they lack.
        try main.write(to: store.directory.mainStoreURL)
        let journal = try store.reopen()
        #expect(
            journal.notices.contains { $0.contains("lacks changes 2–3") && $0.contains("p2") && $0.contains("p3") },
            "\(journal.notices)")
        let lost = try #require(try journal.lostEntries())
        #expect(lost.changes == 2...3)
        #expect(lost.entries.map(\.number) == [2, 3])
        #expect(lost.entries.map(\.words) == [["two"], ["picnic", "three"]])
        #expect(lost.entries.allSatisfy { $0.date != nil })

        // Nothing is written meanwhile: a new entry would take p2's number.
        let refused = #expect(throws: JournalError.self) { try journal.add(NewEntry(text: "four")) }
        #expect(
            refused?.kind == .store && refused?.message.contains("lost changes") == true, "\(refused?.message ?? "")")
        #expect(throws: JournalError.self) { try journal.checkAcceptsChanges() }
        let report = try journal.verify()
        #expect(!report.isConsistent)
        #expect(report.lostEntries == lost)
        #expect(report.problems.count == 2 && report.problems[0].contains("p2"), "\(report.problems)")
        #expect(try journal.list().total == 1)

        // Reindexing accepts the loss.
        try journal.reindex()
        #expect(try journal.lostEntries() == nil)
        #expect(try journal.search("two").total == 0)
        #expect(try journal.search("one").total == 1)
        #expect(try journal.add(NewEntry(text: "four")).id.number == 4, "the lost entries' numbers are not given again")
        try store.expectConsistent()
    }

    @Test func aSearchStoreFromAnotherHistoryOfTheSameLengthIsRebuilt() throws {
        let (store, main, search) = try journalWithCopiesAfterOne()
        store.close()
        let searchAfterTwo = try Data(contentsOf: store.directory.searchStoreURL)
        // Another history from the same copies: its change 2 is another entry numbered p2.
        try main.write(to: store.directory.mainStoreURL)
        try search.write(to: store.directory.searchStoreURL)
        try store.reopen()
        let other = try store.journal.add(NewEntry(text: "different"))
        #expect(other.id.number == 2)
        store.close()
        // The search store of the first history, at the same change number.
        try searchAfterTwo.write(to: store.directory.searchStoreURL)
        let journal = try store.reopen()
        #expect(journal.notices.contains { $0.contains("another history of the entries") }, "\(journal.notices)")
        #expect(try journal.search("two").total == 0, "p2's old words must not find its new text")
        #expect(try journal.search("different").total == 1)
        try store.expectConsistent()
    }
}
