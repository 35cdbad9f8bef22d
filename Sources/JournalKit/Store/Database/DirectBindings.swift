import Foundation
import GRDB
import GRDBSQLite

/// Binds a statement's values through SQLite's C API, for the statements an import runs once
/// per entry, token or document: GRDB boxes every argument as an existential `DatabaseValue` and
/// copies each blob into `Data` first, work of the order of SQLite's own per row. Values are bound by position (from 1); blobs and text
/// are copied by SQLite (`SQLITE_TRANSIENT`), so the caller's buffers need not outlive the call.
struct DirectBindings: ~Copyable {
    fileprivate let statement: SQLiteStatement

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(statement, index, value)
    }

    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(statement, index, Int64(value))
    }

    /// Binds `value`, or NULL when it is nil.
    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else {
            sqlite3_bind_null(statement, index)
            return
        }
        bind(index, value)
    }

    /// Binds `bytes` as a blob (empty ones too: a zero-length blob, never NULL).
    func bind(_ index: Int32, _ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(
                statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                transient)
        }
    }

    /// Binds `bytes` as a blob, or NULL when it is nil.
    func bind(_ index: Int32, _ bytes: (some ContiguousBytes)?) {
        guard let bytes else {
            sqlite3_bind_null(statement, index)
            return
        }
        bind(index, bytes)
    }

    /// Binds `uuid` as a blob of its 16 bytes.
    func bind(_ index: Int32, _ uuid: UUID) {
        uuid.withBytes { bind(index, $0) }
    }

    func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int64(statement, index, value ? 1 : 0)
    }

    /// Binds `text` as TEXT, or NULL when it is nil.
    func bind(_ index: Int32, text: String?) {
        guard let text else {
            sqlite3_bind_null(statement, index)
            return
        }
        bind(index, text: text)
    }

    /// Binds `text` as TEXT, NUL characters included (its UTF-8 bytes with their length).
    func bind(_ index: Int32, text: String) {
        var text = text
        text.withUTF8 { buffer in
            _ = sqlite3_bind_text(
                statement, index,
                UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                    .assumingMemoryBound(to: CChar.self), Int32(buffer.count), transient)
        }
    }

    /// Binds `texts[indices[0]]`, `texts[indices[1]]`, … as TEXT to the parameters from 1 on.
    func bind(_ texts: [String], at indices: [Int]) {
        for (parameter, index) in zip(Int32(1)..., indices) { bind(parameter, text: texts[index]) }
    }

    private var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}

extension Statement {
    /// This statement with its parameters set by `bind`, every one of them, ready to be run
    /// (`execute()`) or read (`Row.fetchCursor(_:)`) without arguments.
    func bound(_ bind: (borrowing DirectBindings) -> Void) -> Statement {
        setUncheckedArguments([])
        bind(DirectBindings(statement: sqliteStatement))
        return self
    }
}

extension Statement {
    /// Runs this statement with its parameters set by `bind` (every one of them) through
    /// SQLite's C API, calling `row` on each row it gives while the statement is on it (read
    /// with ``DirectColumns``). For the statements an import runs for each entry: GRDB resets a
    /// statement twice a run, checking its thread each time, and keeps per-run bookkeeping, none
    /// of which this does. Not for a statement that begins or ends a transaction, whose state
    /// GRDB tracks.
    func run(
        in db: Database, bind: (borrowing DirectBindings) -> Void, row: (Statement) throws -> Void = { _ in }
    ) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        bind(DirectBindings(statement: statement))
        defer { sqlite3_reset(statement) }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return
            case SQLITE_ROW: try row(self)
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                    sql: sql)
            }
        }
    }
}
