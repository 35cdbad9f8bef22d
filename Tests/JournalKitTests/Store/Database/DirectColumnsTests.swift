import Foundation
import GRDB
import Testing

@testable import JournalKit

@Suite struct DirectColumnsTests {
    /// Each row a cursor moves to is read in place: its integer and its blob's bytes, an empty
    /// blob and NULL as no bytes, a blob past a page as a whole.
    @Test func readsTheRowACursorIsOn() throws {
        let queue = try DatabaseQueue()
        let long = [UInt8]((0..<10_000).map { UInt8($0 % 251) })
        let read = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b BLOB)")
            try db.execute(
                sql: "INSERT INTO t VALUES (?, ?), (?, ?), (?, ?), (?, ?)",
                arguments: [Int64.min, Data([1, 2, 3]), 2, Data(), 3, nil, Int64.max, Data(long)])
            let statement = try db.makeStatement(sql: "SELECT a, b FROM t ORDER BY rowid")
            let cursor = try Row.fetchCursor(statement)
            var read: [(Int64, [UInt8])] = []
            while try cursor.next() != nil {
                read.append((statement.int64(atColumn: 0), statement.withBlob(atColumn: 1) { [UInt8]($0) }))
            }
            return read
        }
        #expect(read.map(\.0) == [Int64.min, 2, 3, Int64.max])
        #expect(read.map(\.1) == [[1, 2, 3], [], [], long])
    }
}
