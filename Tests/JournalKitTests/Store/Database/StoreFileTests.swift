import Foundation
import GRDB
import Testing

@testable import JournalKit

/// A store's connections and its checkpoint after a large write: SQLite's scratch in memory;
/// the WAL emptied, so that the last close holds the store's exclusive lock for no work; a
/// reader of an older state makes it copy what it can and give up soon, not after a writer's
/// timeout.
@Suite struct StoreFileTests {
    /// The size of a store's WAL, 0 when there is none.
    static func walBytes(of store: any StoreFile) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: store.url.path + "-wal")
        return (attributes?[.size] as? Int) ?? 0
    }

    @Test(arguments: [nil, "a passphrase"])
    func anImportAndAReindexLeaveBothWALsEmpty(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        try store.importTexts((1...300).map { "entry \($0) of a journal imported at once" })
        #expect(Self.walBytes(of: store.journal.main) == 0)
        #expect(Self.walBytes(of: store.journal.search) == 0)
        _ = try store.journal.add(NewEntry(text: "one more, imported it was not"))
        #expect(Self.walBytes(of: store.journal.search) > 0)
        try store.journal.reindex()
        #expect(Self.walBytes(of: store.journal.main) == 0)
        #expect(Self.walBytes(of: store.journal.search) == 0)
        #expect(try store.journal.search("imported").total == 301)
    }

    /// An import large enough that both stores' commits leave their pages for a checkpoint
    /// aside (more than SQLite's 1,000 pages each) ends with both WALs empty all the same.
    @Test(arguments: [nil, "a passphrase"])
    func aLargeImportCopiedAsideLeavesBothWALsEmpty(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        try store.importTexts(
            (1...4_000).map { entry in
                (0..<120).map { "w\(entry * 131 + $0)x\($0 % 7)" }.joined(separator: " ")
            })
        #expect(Self.walBytes(of: store.journal.main) == 0)
        #expect(Self.walBytes(of: store.journal.search) == 0)
        #expect(try store.journal.search("w131x0").total == 1)
        #expect(try store.journal.search("x3").total == 0)
        #expect(try store.reopen().search("w\(4_000 * 131 + 119)x0").total == 1)
    }

    /// A commit that leaves its pages in the WAL writes nothing into the store file, says
    /// whether SQLite's automatic checkpoint would have run, and leaves that checkpoint on for
    /// the next commit; the checkpoint aside, on a connection of its own (through the
    /// encrypting VFS for an encrypted journal), copies them while the writer goes on, and
    /// empties the WAL when asked to.
    @Test(arguments: [nil, "a passphrase"])
    func aCommitLeavingItsLogWaitsForTheCheckpointAside(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        _ = try store.journal.add(NewEntry(text: "opens the writers"))
        let main = store.journal.main
        try main.checkpoint()
        func storeBytes() throws -> Int {
            try FileManager.default.attributesOfItem(atPath: main.url.path)[.size] as? Int ?? 0
        }
        let small = try main.writeLeavingLog { db in try db.execute(sql: "CREATE TABLE bulk (b BLOB NOT NULL)") }
        #expect(!small.leftLog)
        try main.checkpoint()
        let before = try storeBytes()
        let large = try main.writeLeavingLog { db in
            for _ in 0..<1_200 { try db.execute(sql: "INSERT INTO bulk VALUES (randomblob(4000))") }
        }
        #expect(large.leftLog)
        #expect(try storeBytes() == before, "nothing copied at the commit")
        #expect(Self.walBytes(of: main) > 1_200 * 4_000)
        #expect(try main.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1_000)
        try main.checkpointAside(emptying: false, start: ImportThread.checkpoint(emptying: false).start)
        try main.write { db in try db.execute(sql: "INSERT INTO bulk VALUES (x'01')") }
        main.waitForCheckpointAside()
        #expect(try storeBytes() > before + 1_200 * 4_000)
        #expect(Self.walBytes(of: main) > 0, "a passive checkpoint leaves the WAL")
        try main.checkpointAside(emptying: true, start: ImportThread.checkpoint(emptying: true).start)
        main.waitForCheckpointAside()
        #expect(Self.walBytes(of: main) == 0)
        let reopened = try store.reopen()
        #expect(try reopened.main.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bulk") } == 1_201)
    }

    /// A journal released while its checkpoint aside runs waits for it where it is released (the
    /// thread holds none of the store), and loses nothing.
    @Test func aJournalReleasedDuringItsCheckpointAsideLosesNothing() throws {
        let store = try TemporaryJournal()
        store.close()
        var journal: Journal? = try Journal(directory: store.directory)
        _ = try journal!.main.writeLeavingLog { db in
            try db.execute(sql: "CREATE TABLE bulk (b BLOB NOT NULL)")
            for _ in 0..<1_500 { try db.execute(sql: "INSERT INTO bulk VALUES (randomblob(4000))") }
        }
        try journal!.main.checkpointAside(emptying: true, start: ImportThread.checkpoint(emptying: true).start)
        journal = nil
        // Released, the store waited for its checkpoint; its last connection closed.
        let log = store.directory.mainStoreURL.path + "-wal"
        #expect((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0 == 0)
        let reopened = try store.reopen()
        #expect(try reopened.main.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM bulk") } == 1_500)
    }

    /// SQLite's temporary tables, sorts and statement journals stay in memory on every
    /// connection (never in a file outside the journal's folder), and the writer keeps a
    /// larger page cache than SQLite's default, which readers keep.
    @Test(arguments: [nil, "a passphrase"])
    func scratchStaysInMemoryAndTheWriterCachesMore(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        try store.journal.add(NewEntry(text: "opens both stores' writers"))
        for pool in [store.journal.main.pool, store.journal.search.pool] {
            let writer = try pool.writeWithoutTransaction { db in
                (try Int.fetchOne(db, sql: "PRAGMA temp_store"), try Int.fetchOne(db, sql: "PRAGMA cache_size"))
            }
            let reader = try pool.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA temp_store"), try Int.fetchOne(db, sql: "PRAGMA cache_size"))
            }
            #expect(writer.0 == 2 && reader.0 == 2, "temp_store MEMORY")
            #expect(writer.1 == -StoreDatabase.writerCacheKiB)
            #expect(reader.1 == -2_000, "SQLite's default")
        }
    }

    @Test func aCheckpointEmptiesTheWALItFindsWritten() throws {
        let store = try TemporaryJournal()
        _ = try store.journal.add(NewEntry(text: "written through the WAL"))
        #expect(Self.walBytes(of: store.journal.main) > 0)
        try store.journal.main.checkpoint()
        #expect(Self.walBytes(of: store.journal.main) == 0)
        try store.reopen()
        #expect(try store.journal.search("written").total == 1)
    }

    @Test func aReaderOfAnOlderStateMakesItCopyWhatItCanAndGiveUpSoon() throws {
        let store = try TemporaryJournal()
        _ = try store.journal.add(NewEntry(text: "before the reader"))
        // Another process's reader, in the middle of a read transaction begun before the next write.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: store.journal.main.url.path, configuration: configuration)
        try reader.inDatabase { db in
            try db.execute(sql: "BEGIN")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") == 1)
        }
        _ = try store.journal.add(NewEntry(text: "after the reader"))
        let started = ContinuousClock.now
        try store.journal.main.checkpoint()
        // Well under the 60 s a writer waits for another's write.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(Self.walBytes(of: store.journal.main) > 0)
        try reader.inDatabase { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") == 1)
            try db.execute(sql: "COMMIT")
        }
        try store.journal.main.checkpoint()
        #expect(Self.walBytes(of: store.journal.main) == 0)
        #expect(try store.journal.search("reader").total == 2)
    }
}
