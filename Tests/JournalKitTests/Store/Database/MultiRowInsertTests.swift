import Foundation
import GRDB
import Synchronization
import Testing

@testable import JournalKit

@Suite struct MultiRowInsertTests {
    /// Rows added are all in the table once flushed, in order, whether they filled whole
    /// statements or not; nothing is written twice, and a flush with nothing held writes nothing.
    @Test(arguments: [0, 1, 99, 100, 101, 250])
    func writesEveryRowAdded(count: Int) throws {
        let queue = try DatabaseQueue()
        let (rows, statements) = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, bytes BLOB NOT NULL)")
            var inserts = 0
            db.trace(options: .statement) { if "\($0)".hasPrefix("INSERT") { inserts += 1 } }
            defer { db.trace(options: []) }
            var insert = MultiRowInsert<Int>(into: "t", columns: ["id", "name", "bytes"], in: db) {
                bind, first, value in
                bind.bind(first, value)
                bind.bind(first + 1, text: "row\u{0}\(value)")
                bind.bind(first + 2, [UInt8](repeating: UInt8(value % 256), count: value % 3))
            }
            for value in 0..<count { try insert.add(value) }
            try insert.flush()
            try insert.flush()
            let rows = try Row.fetchAll(db, sql: "SELECT id, CAST(name AS BLOB), bytes FROM t ORDER BY rowid")
            return (rows, inserts)
        }
        #expect(rows.map { $0[0] as Int } == Array(0..<count))
        #expect(rows.allSatisfy { [UInt8]($0[1] as Data) == Array("row\u{0}\($0[0] as Int)".utf8) })
        #expect(rows.allSatisfy { ($0[2] as Data).count == ($0[0] as Int) % 3 })
        let perStatement = MultiRowInsert<Int>.rowsPerStatement
        #expect(statements == (count + perStatement - 1) / perStatement)
    }

    /// Rows made on another thread are written in the order made, each seen once by `added`
    /// after it is added, however many chunks they take; rows added before are written first.
    @Test(arguments: [0, 1, 399, 400, 401, 2_500])
    func writesRowsMadeOnAnotherThreadInOrder(count: Int) throws {
        let queue = try DatabaseQueue()
        let (ids, seen) = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, twice INTEGER NOT NULL)")
            var insert = MultiRowInsert<Int>(into: "t", columns: ["id", "twice"], in: db) { bind, first, value in
                bind.bind(first, value)
                bind.bind(first + 1, value * 2)
            }
            try insert.add(-1)
            var seen: [Int] = []
            try insert.add(
                from: RowProducer().start { sink in for value in 0..<count { sink(value) } }, added: { seen.append($0) }
            )
            try insert.flush()
            return (try Int.fetchAll(db, sql: "SELECT id FROM t WHERE twice = 2 * id ORDER BY rowid"), seen)
        }
        #expect(ids == [-1] + Array(0..<count))
        #expect(seen == Array(0..<count))
    }

    /// A row that fails to be written is thrown once the thread making rows has ended: nothing
    /// it captured is used after the call returns.
    @Test func aFailedRowStopsTheProducer() throws {
        let queue = try DatabaseQueue()
        let made = Mutex(0)
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
                var insert = MultiRowInsert<Int>(into: "t", columns: ["id"], in: db) { bind, first, value in
                    bind.bind(first, value)
                }
                try insert.add(
                    from: RowProducer().start { sink in
                        // Row 5 is given twice: the statement holding the second fails.
                        for value in [0, 1, 2, 3, 4, 5, 5] + Array(6..<100_000) {
                            made.withLock { $0 += 1 }
                            sink(value)
                        }
                    }, added: { _ in })
                try insert.flush()
            }
        }
        #expect(made.withLock { $0 } == 100_001, "the producer had ended")
    }
}
