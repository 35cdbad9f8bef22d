import Foundation
import GRDB
import Testing

@testable import JournalKit

/// The main store's commits are durable when they return, whatever GRDB sets on opening; the
/// search store's may lag.
@Suite struct DurabilityTests {
    private func synchronous(_ pool: DatabasePool) throws -> Int? {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
    }

    /// What GRDB does by default, checked: a pool in WAL mode sets NORMAL after
    /// `prepareDatabase`, so a pragma set there does not last.
    @Test func grdbSetsNormalAfterPrepareDatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(
            path: folder.appendingPathComponent("grdb.sqlite").path, configuration: configuration)
        #expect(try synchronous(pool) == 1)
        try pool.close()
    }

    @Test func everyWriteRunsWithTheStoresLevelInForce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (durability, level) in [(Durability.durableAtCommit, 2), (.mayLag, 1)] {
            let path = folder.appendingPathComponent("\(level).sqlite").path
            let writer = try DatabasePool(path: path)
            let pool = StorePool(readers: try DatabasePool(path: path), durability: durability, openWriter: { writer })
            try pool.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (x)") }
            #expect(try synchronous(writer) == level)
            // Changed behind the pool's back (as GRDB does on opening): the next write sets it again.
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
            try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(try synchronous(writer) == level)
            try pool.close()
        }
    }

    @Test func aJournalsStoresHaveTheirLevels() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "durable"))
        let main = try store.journal.main.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        let search = try store.journal.search.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(main == 2)
        #expect(search == 1)
    }
}
