import Foundation
import GRDB
import GRDBSQLite

/// Reads the row a statement is on through SQLite's C API, for reads of many small blobs in
/// a row (a merge of staged postings reads one per token and run): GRDB hands each blob over
/// as `Data`, an allocation per value.
///
/// Invariant: a value read is valid only while the statement stays on that row, until a cursor
/// over it (`Row.fetchCursor(statement)`) moves on; `body` must not keep the buffer.
extension Statement {
    /// Column `index` (from 0) of the current row, as an integer.
    func int64(atColumn index: Int32) -> Int64 {
        sqlite3_column_int64(sqliteStatement, index)
    }

    /// Column `index` (from 0) of the current row, as text (empty for NULL).
    func text(atColumn index: Int32) -> String {
        guard let pointer = sqlite3_column_text(sqliteStatement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` (from 0) of the current row, as the bytes of a blob (empty for an empty
    /// blob or NULL).
    func withBlob<T>(atColumn index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        // The pointer first, then its size: SQLite's documented order.
        let pointer = sqlite3_column_blob(sqliteStatement, index)
        let count = pointer == nil ? 0 : Int(sqlite3_column_bytes(sqliteStatement, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
