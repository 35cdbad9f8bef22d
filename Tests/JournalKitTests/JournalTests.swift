import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

@Suite struct JournalTests {
    private func date(_ text: String) -> JournalDate { JournalDate(iso8601: text)! }

    @Test func addsSearchesEditsAndDeletesThroughBothStores() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let first = try journal.add(NewEntry(date: date("2024-01-01"), text: "Thé Crème BRÛLÉE"))
        let second = try journal.add(NewEntry(date: date("2024-01-02"), text: "Straße nach İstanbul"))
        try store.expectConsistent()

        #expect(try journal.search("bru cre").entries.map(\.id) == [first.id])
        #expect(try journal.search("strasse").entries.map(\.id) == [second.id])
        #expect(try journal.search("ist").entries.map(\.id) == [second.id])

        try journal.edit(first.id, text: "nothing sweet")
        #expect(try journal.search("brulee").total == 0)
        #expect(try journal.search("sweet").entries.map(\.id) == [first.id])
        try store.expectConsistent()

        try journal.delete(second.id)
        #expect(try journal.search("strasse").total == 0)
        expectError(.notFound) { try journal.entry(second.id) }
        try store.expectConsistent()

        let third = try journal.add(NewEntry(text: "after the delete"))
        #expect(third.id.number == 3, "a deleted entry's number is never reused")
    }

    @Test func storesTextExactlyIncludingNULAndUnnormalizedForms() throws {
        let store = try TemporaryJournal()
        let text = "cafe\u{301} \u{0} Ａ  trailing \n"
        let entry = try store.journal.add(NewEntry(text: text))
        let read = try store.reopen().entry(entry.id)
        #expect(read.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(read.text.utf8.count == text.utf8.count)
        #expect(try store.journal.search("café").total == 1)
        try store.expectConsistent()
    }

    @Test func ordersNewestFirstAndBreaksTiesByLargerNumber() throws {
        let store = try TemporaryJournal()
        let same = date("2024-03-03T03:03:03Z")
        let a = try store.journal.add(NewEntry(date: same, text: "tie one"))
        let b = try store.journal.add(NewEntry(date: same, text: "tie two"))
        let newer = try store.journal.add(NewEntry(date: date("2025-01-01"), text: "tie three"))
        let older = try store.journal.add(NewEntry(date: date("2020-01-01"), text: "tie four"))
        let expected = [newer.id, b.id, a.id, older.id]
        #expect(try store.journal.search("tie").entries.map(\.id) == expected)
        #expect(try store.journal.list().entries.map(\.id) == expected)
        #expect(
            try store.journal.search("tie", page: PageRequest(limit: 2, offset: 1)).entries.map(\.id) == [b.id, a.id])
        #expect(try store.journal.search("tie", page: PageRequest(limit: 2, offset: 1)).total == 4)
        #expect(try store.journal.search("tie", page: PageRequest(limit: 9, offset: 9)).entries.isEmpty)
        // With no words (the full-screen search's empty query), the page is read by date alone.
        let every = SearchQuery(filter: .none)
        #expect(try store.journal.search(every).entries.map(\.id) == expected)
        let second = try store.journal.search(every, page: PageRequest(limit: 2, offset: 1))
        #expect((second.total, second.entries.map(\.id)) == (4, [b.id, a.id]))
        let oldest = try store.journal.search(every, page: PageRequest(limit: 2, offset: 1, order: .oldest))
        #expect((oldest.total, oldest.entries.map(\.id)) == (4, [a.id, b.id]))
        #expect(try store.journal.search(every, page: PageRequest(limit: 9, offset: 9)).entries.isEmpty)
        #expect(try store.journal.search(every, page: PageRequest(limit: 0)).entries.count == 4)
    }

    @Test func refusesEmptyAndHugeTextAndBadQueries() throws {
        let store = try TemporaryJournal()
        expectError(.invalidInput) { try store.journal.add(NewEntry(text: " \n\t")) }
        expectError(.invalidInput) {
            try store.journal.add(NewEntry(text: String(repeating: "x", count: NewEntry.maximumTextBytes + 1)))
        }
        #expect(throws: JournalError(.usage, "the query is empty")) { try store.journal.search("  ") }
        expectError(.usage) { try store.journal.search("…", strategy: SearchStrategies[.token]) }
        expectError(.usage) { try SearchStrategies.named("nope") }
        #expect(try store.allEntries().isEmpty)
    }

    @Test func findsStrategiesByNameAndAlias() throws {
        for strategy in SearchStrategies.all {
            #expect(try SearchStrategies.named(strategy.name) == strategy)
            #expect(try SearchStrategies.named(strategy.alias) == strategy)
            expectError(.usage) { try SearchStrategies.named(strategy.name.uppercased() + " ") }
        }
    }

    @Test func parsesIdentifiersAsUsersTypeThem() throws {
        let store = try TemporaryJournal()
        let entry = try store.journal.add(NewEntry(text: "x"))
        #expect(try store.journal.entryID(parsing: entry.id.uri) == entry.id)
        #expect(try store.journal.entryID(parsing: "p1") == entry.id)
        #expect(try store.journal.entryID(parsing: " 1 ") == entry.id)
        expectError(.usage) { try store.journal.entryID(parsing: "p1x") }
        let foreign = EntryID(storeID: UUID(), number: 1)
        expectError(.notFound) { try store.journal.entryID(parsing: foreign.uri) }
        expectError(.notFound) { try store.journal.delete(foreign) }
    }
}

@Suite struct CatchUpTests {
    /// A main-store write as a process killed right after it makes: no pruning, no catch-up lock.
    static var diesAfterWriting: MainStore.WriteHooks { MainStore.WriteHooks(pruningThrough: 0) }

    @Test func catchesUpWhenTheProcessDiedBetweenTheTwoStores() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "indexed already"))
        // Write to the main store alone, as a process killed before its catch-up would have.
        _ = try store.journal.main.insert(Self.diesAfterWriting) { insert in
            for index in 0..<25 { try insert(PreparedEntry(text: "orphan \(index)")) }
        }
        _ = try store.journal.main.delete([1], Self.diesAfterWriting)
        #expect(try store.journal.search("orphan").total == 0)
        try store.reopen()
        #expect(try store.journal.search("orphan").total == 25)
        #expect(try store.journal.search("indexed").total == 0)
        try store.expectConsistent()
    }

    @Test func aJournalFoundUpToDateIsSearchedWithoutWritingAByte() throws {
        let store = try TemporaryJournal()
        for index in 0..<30 { try store.journal.add(NewEntry(text: "Crème brûlée number \(index) #dessert")) }
        store.close()
        let files = [store.directory.mainStoreURL, store.directory.searchStoreURL]
        let before = try files.map { try Data(contentsOf: $0) }
        let journal = try store.reopen()
        for strategy in [StrategyID.prefix, .token, .containsN, .matchesCD, .contains] {
            #expect(try journal.search("brûl", strategy: SearchStrategies[strategy]).total == 30, "\(strategy)")
        }
        #expect(try journal.search(regex: "n.mber 7 ").total == 1)
        #expect(try journal.list(filter: EntryFilter(tags: ["dessert"])).total == 30)
        #expect(!journal.main.pool.hasWriter && !journal.search.pool.hasWriter)
        store.close()
        #expect(try files.map { try Data(contentsOf: $0) } == before)
        for file in files {
            let wal = try? FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int
            #expect((wal ?? 0) == 0, "\(file.lastPathComponent)-wal")
        }
        // The first write opens the writer; what it wrote is searchable at once.
        try store.reopen().add(NewEntry(text: "brûlure"))
        #expect(store.journal.main.pool.hasWriter && store.journal.search.pool.hasWriter)
        #expect(try store.journal.search("brûl").total == 31)
    }

    @Test func catchesUpInSmallBatchesResumingInsideAChange() throws {
        let store = try TemporaryJournal()
        let words = ["alpha", "beta", "gamma", "delta"]
        _ = try store.journal.main.insert(Self.diesAfterWriting) { insert in
            for index in 0..<23 {
                let text = "\(words[index % 4]) \(index)"
                try insert(PreparedEntry(text: text))
            }
        }
        _ = try store.journal.main.update(5, PreparedEntry(text: "edited"), Self.diesAfterWriting)
        _ = try store.journal.main.delete([7], Self.diesAfterWriting)
        let recorder = ProgressRecorder()
        try SearchIndexer(main: store.journal.main, search: store.journal.search, batchSize: 4).catchUp {
            recorder.record($0)
        }
        let reports = recorder.done
        #expect(reports.count >= 6)
        #expect(reports == reports.sorted())
        try store.expectConsistent()
        #expect(try store.journal.search("edited").total == 1)
    }

    @Test func prunesTheHistoryTheSearchStoreHasApplied() throws {
        let store = try TemporaryJournal()
        func history() throws -> [Int64] {
            try store.journal.main.pool.read { db in try Int64.fetchAll(db, sql: "SELECT seq FROM change ORDER BY seq")
            }
        }
        let first = try store.journal.add(NewEntry(text: "one"))
        try store.journal.add(NewEntry(text: "two"))
        try store.journal.edit(first.id, text: "uno")
        try store.journal.delete(first.id)
        // Each write pruned what the search store had applied before it, but the last change it
        // applied (kept for its tag): that one and the newest remain.
        #expect(try history() == [3, 4])
        // Changes the search store has not applied (a process killed before catching up) stay.
        _ = try store.journal.main.insert(Self.diesAfterWriting) { insert in
            try insert(PreparedEntry(text: "three"))
        }
        _ = try store.journal.main.delete([2], MainStore.WriteHooks(pruningThrough: 4))
        #expect(try history() == [4, 5, 6])
        try store.reopen()
        try store.journal.add(NewEntry(text: "four"))
        #expect(try history() == [6, 7])
        #expect(try store.journal.search("three").total == 1)
        #expect(try store.journal.search("two").total == 0)
        try store.expectConsistent()
    }

    @Test func rebuildsASearchStoreOlderThanThePrunedHistory() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "before the copy"))
        store.close()
        let searchURL = store.directory.searchStoreURL
        let copy = try Data(contentsOf: searchURL)
        try store.reopen()
        let early = try store.journal.add(NewEntry(text: "after the copy"))
        try store.journal.add(NewEntry(text: "later still"))
        try store.journal.delete(early.id)
        store.close()
        // The copy applied change 1 only; the history now starts after change 3.
        try copy.write(to: searchURL)
        try store.reopen()
        #expect(try store.journal.search("after").total == 0)
        #expect(try store.journal.search("later").total == 1)
        try store.expectConsistent()
    }

    @Test func searchesWhileOtherConnectionsHoldBothStoresWriteLocks() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "locked out"))
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        configuration.allowsUnsafeTransactions = true
        // An import in progress holds the main store's write lock for its whole transaction;
        // another process's catch-up may hold the search store's.
        let writers = try [store.directory.mainStoreURL, store.directory.searchStoreURL].map { url in
            let writer = try DatabaseQueue(path: url.path, configuration: configuration)
            try writer.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
            return writer
        }
        defer { for writer in writers { try? writer.inDatabase { try $0.execute(sql: "ROLLBACK") } } }
        // Up to date, so opening and searching need only reads: no wait for either lock.
        #expect(try store.reopen().search("locked").total == 1)
        #expect(try store.journal.list().total == 1)
    }

    @Test func rebuildsAMissingDamagedOrForeignSearchStore() throws {
        let store = try TemporaryJournal()
        for index in 0..<30 { try store.journal.add(NewEntry(text: "entry number \(index)")) }
        let searchURL = store.directory.searchStoreURL

        store.close()
        try FileManager.default.removeItem(at: searchURL)
        #expect(try store.reopen().search("entry").total == 30)
        try store.expectConsistent()

        store.close()
        try Data(repeating: 0x42, count: 8192).write(to: searchURL)
        try store.reopen()
        #expect(store.journal.notices.count == 1)
        #expect(try store.journal.search("number").total == 30)
        try store.expectConsistent()

        store.close()
        let whole = try Data(contentsOf: searchURL)
        try whole.prefix(whole.count / 2).write(to: searchURL)
        try store.reopen()
        #expect(try store.journal.search("number").total == 30)
        try store.expectConsistent()

        let other = try TemporaryJournal()
        try other.journal.add(NewEntry(text: "someone else's"))
        other.close()
        store.close()
        try FileManager.default.removeItem(at: searchURL)
        try FileManager.default.copyItem(at: other.directory.searchStoreURL, to: searchURL)
        try store.reopen()
        #expect(store.journal.notices.first?.contains("another journal") == true, "\(store.journal.notices)")
        #expect(try store.journal.search("someone").total == 0)
        try store.expectConsistent()
    }

    @Test func refusesACorruptOrForeignMainStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-bad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let main = directory.appendingPathComponent("journal.sqlite")
        try Data(repeating: 0x13, count: 4096).write(to: main)
        #expect { try Journal(directory: StoreDirectory(directory)) } throws: { error in
            (error as? JournalError)?.message.contains(main.path) == true
        }
        try FileManager.default.removeItem(at: main)
        try DatabaseQueue(path: main.path).write { try $0.execute(sql: "CREATE TABLE notes(x)") }
        #expect { try Journal(directory: StoreDirectory(directory)) } throws: { error in
            (error as? JournalError)?.message.contains("not a journal store") == true
        }
    }

    @Test func createsStoreFilesReadableByTheOwnerOnly() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "private"))
        for url in [store.directory.mainStoreURL, store.directory.searchStoreURL] {
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: store.directory.url.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
    }
}

/// Collects progress reports, which may come from any thread.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [Int] = []
    func record(_ progress: JournalProgress) { lock.withLock { reports.append(progress.done) } }
    var done: [Int] { lock.withLock { reports } }
}
