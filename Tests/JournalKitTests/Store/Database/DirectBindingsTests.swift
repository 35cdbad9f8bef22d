import Foundation
import GRDB
import Testing

@testable import JournalKit

@Suite struct DirectBindingsTests {
    /// Values bound directly are stored as GRDB would store them: text whole, NUL characters
    /// included; an empty blob as a blob of no bytes, not NULL; integers at both ends.
    @Test func storesWhatItBinds() throws {
        let queue = try DatabaseQueue()
        let text = "a\u{0}b é"
        let row = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b INTEGER, c TEXT, d BLOB, e BLOB)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            try insert.bound {
                $0.bind(1, Int64.min)
                $0.bind(2, Int.max)
                $0.bind(3, text: text)
                $0.bind(4, [UInt8]())
                $0.bind(5, [UInt8](1...5)[1...3])
            }.execute()
            // The same statement run again through GRDB's arguments, as other code may.
            try insert.execute(arguments: [1, 2, "c", Data([9]), Data()])
            return try Row.fetchAll(
                db, sql: "SELECT a, b, CAST(c AS BLOB), typeof(c), typeof(d), length(d), e FROM t ORDER BY rowid")
        }
        #expect(row[0][0] == Int64.min)
        #expect(row[0][1] == Int.max)
        #expect([UInt8](row[0][2] as Data) == Array(text.utf8))
        #expect(row[0][3] == "text")
        #expect(row[0][4] == "blob")
        #expect(row[0][5] == 0)
        #expect([UInt8](row[0][6] as Data) == [2, 3, 4])
        #expect(row[1][0] == 1)
        #expect([UInt8](row[1][2] as Data) == Array("c".utf8))
    }

    /// What is bound stays as it was bound after the bytes it came from are freed and their
    /// memory reused, before the statement runs: SQLite copied them.
    @Test func copiesWhatItBinds() throws {
        let queue = try DatabaseQueue()
        let stored = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (d BLOB, e TEXT)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?, ?)")
            for value in 0..<3 {
                let statement = insert.bound {
                    $0.bind(1, [UInt8](repeating: UInt8(value), count: 100))
                    $0.bind(2, text: String(repeating: "\(value)", count: 100))
                }
                let reuse = (0..<64).map { _ in [UInt8](repeating: 0xEE, count: 100) }
                try statement.execute()
                #expect(reuse.count == 64)
            }
            return try Row.fetchAll(db, sql: "SELECT d, e FROM t ORDER BY rowid")
        }
        #expect(stored.map { Set($0[0] as Data) } == [[0], [1], [2]])
        #expect(stored.map { $0[1] as String } == (0..<3).map { String(repeating: "\($0)", count: 100) })
    }
}
