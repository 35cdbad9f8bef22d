import Foundation
import GRDB
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
}
