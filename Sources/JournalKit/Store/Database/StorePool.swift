import Foundation
import GRDB
import GRDBSQLite

/// The connections to one store file. Reads go through connections that write nothing; the
/// writer is opened on the first write. A process that only reads (a one-shot search of an
/// up-to-date journal) therefore never writes: opening a writer makes GRDB re-create the WAL
/// with a transaction when the file is missing or empty, as it is whenever the last process
/// closed the store, and closing it checkpoints, each with its fsyncs.
///
/// Invariant: once opened, the writer stays open until ``close()``; a read-only store never
/// opens one. Every write runs with the store's ``Durability`` in force on the writer, set
/// outside the transaction (SQLite can't change it inside one) whatever GRDB set on opening,
/// and commits only while the file opened is still the one at the store's path: a journal
/// converted (encrypted or decrypted) by another process meanwhile is refused, not written to
/// the old file that conversion removes.
package final class StorePool: @unchecked Sendable {
    private let readers: any DatabaseReader
    private let durability: Durability
    private let openWriter: (() throws -> DatabasePool)?
    private let openSideConnection: SideConnectionOpener?
    private let lock = NSLock()
    private var writer: DatabasePool?
    /// The checkpoint running on a thread of its own, if any (``checkpointAside(emptying:start:)``).
    private var aside: Deferred<Void>?
    private let file: URL?
    private let fileIdentity: FileIdentity?
    private let beforeRead: (@Sendable (Database) throws -> Void)?

    /// `readers` answers reads; `openWriter` opens the writer, or is nil when the store can't
    /// be written; `openSideConnection` opens another connection that can write, for
    /// ``checkpointAside(emptying:start:)`` (nil: that checkpoint runs on the writer); `durability` is
    /// kept in force on the writer; `file` is the store's path; `beforeRead` runs first in every
    /// read transaction (the main store hides a pending import's entries there).
    init(
        readers: any DatabaseReader, durability: Durability, file: URL? = nil,
        beforeRead: (@Sendable (Database) throws -> Void)? = nil, openWriter: (() throws -> DatabasePool)?,
        openSideConnection: (() throws -> DatabaseQueue)? = nil
    ) {
        self.readers = readers
        self.beforeRead = beforeRead
        self.durability = durability
        self.openWriter = openWriter
        self.openSideConnection = openSideConnection.map(SideConnectionOpener.init)
        self.file = file
        fileIdentity = file.flatMap { FileIdentity(path: $0.path) }
    }

    /// Runs `body` in a read transaction that sees every transaction committed before it began.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard let beforeRead else { return try readers.read(body) }
        return try readers.read { db in
            try beforeRead(db)
            return try body(db)
        }
    }

    /// Runs `body` in a write transaction, opening the writer first if need be. It has
    /// committed, as durably as the store's ``Durability`` says, when this returns.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in try transaction(db, body) }
    }

    /// Runs `body` in a write transaction as ``write(_:)`` does, except that the commit copies
    /// nothing into the store file: SQLite's automatic checkpoint, which copies the WAL and
    /// syncs both files before the commit returns once the WAL holds its threshold of pages
    /// (1,000 by default), is off for this commit. `leftLog` says whether it would have run:
    /// ``checkpointAside(emptying:start:)`` then does its work while the caller goes on.
    func writeLeavingLog<T>(_ body: (Database) throws -> T) throws -> (value: T, leftLog: Bool) {
        try writeWithoutTransaction { db in
            let connection = db.sqliteConnection
            let threshold = try Int32.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 0
            var logPages: Int32 = 0
            let value = try withUnsafeMutablePointer(to: &logPages) { pages in
                // SQLite's own hook is the automatic checkpoint; this one only counts the pages.
                sqlite3_wal_hook(
                    connection,
                    { context, _, _, pages in
                        context?.assumingMemoryBound(to: Int32.self).pointee = pages
                        return SQLITE_OK
                    }, pages)
                defer { sqlite3_wal_autocheckpoint(connection, threshold) }
                return try transaction(db, body)
            }
            return (value, threshold > 0 && logPages >= threshold)
        }
    }

    /// Copies the WAL into the store file on a thread and a connection of their own, so that
    /// the caller goes on meanwhile: the checkpoint a commit of ``writeLeavingLog(_:)`` left.
    /// It copies what was committed when it starts, waiting for no reader and no writer (a
    /// passive checkpoint); `emptying`, it then empties the WAL as ``checkpoint()`` does. One
    /// that fails leaves the WAL to a later checkpoint, having lost nothing.
    ///
    /// A write that begins while it runs writes the WAL on from its end instead of from its
    /// start: a large one waits for it first (``waitForCheckpointAside()``), so that the WAL
    /// never holds more than about one large write. ``checkpoint()`` and ``close()`` wait for
    /// it too. The caller starts the thread with `start`, at the priority its thread map gives
    /// it (an emptying one, the last of a long write, is waited for only before the next write
    /// commits, and may run behind the threads beside it).
    ///
    /// Without a way to open another connection, it runs on the writer, before this returns. The
    /// thread holds none of the pool: a pool released meanwhile waits for it where it is released.
    func checkpointAside(emptying: Bool, start: AsideThread) throws(JournalError) {
        waitForCheckpointAside()
        let (durability, walPath) = (durability, walPath)
        guard let openSideConnection else {
            try? writeWithoutTransaction { db in try Self.copyLog(emptying: emptying, walPath: walPath, in: db) }
            return
        }
        let started = try start { [openSideConnection] in
            do {
                let connection = try openSideConnection.open()
                defer { try? connection.close() }
                try connection.writeWithoutTransaction { db in
                    try durability.enforce(on: db)
                    try Self.copyLog(emptying: emptying, walPath: walPath, in: db)
                }
            } catch {}
        }
        lock.withLock { aside = started }
    }

    /// Starts work on a thread of its own, to be waited for where it is needed: how a caller
    /// runs a checkpoint aside (``checkpointAside(emptying:start:)``).
    typealias AsideThread = (@escaping @Sendable () -> Void) throws(JournalError) -> Deferred<Void>

    /// Returns once the checkpoint aside, if one was started, is done.
    func waitForCheckpointAside() {
        _ = lock.withLock { aside }?.value
    }

    /// Copies the WAL's pages into the store file and empties the WAL, on the writer.
    func checkpoint() throws {
        waitForCheckpointAside()
        try writeWithoutTransaction { db in try Self.copyLog(emptying: true, walPath: walPath, in: db) }
    }

    /// The store's WAL, when the pool knows its file.
    private var walPath: String? { file.map { $0.path + "-wal" } }

    /// Copies the WAL into the store file on `db`; `emptying`, empties it too unless a reader
    /// still reads an older state after ``StoreDatabase/checkpointWait``, when the pages are
    /// copied as far as it allows and the WAL stays (a passive checkpoint).
    private static func copyLog(emptying: Bool, walPath: String?, in db: Database) throws {
        guard emptying else {
            try db.checkpoint(.passive)
            return
        }
        // GRDB sets one busy timeout per connection; this wait is shorter than a write's.
        sqlite3_busy_timeout(db.sqliteConnection, Int32(StoreDatabase.checkpointWait * 1_000))
        defer { sqlite3_busy_timeout(db.sqliteConnection, Int32(StoreDatabase.busyTimeout * 1_000)) }
        do {
            try db.checkpoint(.truncate)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            try db.checkpoint(.passive)
            return
        }
        // SQLite syncs the store file before it empties the WAL, not the WAL after: a
        // command reports success only once every change to its files is on disk.
        if let walPath { try DurableFiles.syncFile(atPath: walPath) }
    }

    /// Runs `body` in a transaction on the writer, `db`, committing only while the file opened
    /// is still the one at the store's path.
    private func transaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        var result: T?
        try db.inTransaction(.immediate) {
            if let file, let fileIdentity, FileIdentity(path: file.path) != fileIdentity {
                throw JournalError.store(
                    "\(file.path) was replaced (the journal encrypted or decrypted) while this command ran: nothing was written",
                    file: file.path)
            }
            result = try body(db)
            return .commit
        }
        return result!
    }

    /// Runs `body` on the writer outside any transaction (for statements that can't run in one).
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try currentWriter().writeWithoutTransaction { db in
            try durability.enforce(on: db)
            return try body(db)
        }
    }

    /// Applies `migrator`'s migrations missing from `applied` (those the store's ``StoreFacts``
    /// name), so that opening an up-to-date store neither writes nor waits for another process's
    /// write lock; says whether it wrote. A store that can't be written and lacks only migrations
    /// named in `optional` (ones that add what makes reads faster, never what they need) is used
    /// as it is; one that lacks others is an error that says so.
    func migrate(with migrator: DatabaseMigrator, applied: Set<String>, optional: Set<String> = []) throws -> Bool {
        if openWriter == nil, !Set(migrator.migrations).subtracting(applied).isSubset(of: optional) {
            throw JournalError.store(
                "\(file?.path ?? "a store") is in an earlier format, which this version brings up to date when it opens "
                    + "the journal, and the journal can't be written here: open it once where it can be written",
                file: file?.path)
        }
        let missing = Set(migrator.migrations).subtracting(applied)
        guard !missing.isEmpty, openWriter != nil || !missing.isSubset(of: optional) else { return false }
        let writer = try currentWriter()
        try writer.writeWithoutTransaction(durability.enforce(on:))
        try migrator.migrate(writer)
        return true
    }

    /// Whether a write has opened the writer.
    var hasWriter: Bool { lock.withLock { writer != nil } }

    private func currentWriter() throws -> DatabasePool {
        try lock.withLock {
            if let writer { return writer }
            guard let openWriter else {
                throw DatabaseError(resultCode: .SQLITE_READONLY, message: "the store was opened read-only")
            }
            let opened = try openWriter()
            writer = opened
            return opened
        }
    }

    /// Closes every connection: the readers first, then the writer's pool (its readers, then
    /// itself), so that the last connection to close is one that can write, and SQLite, as it
    /// does then, copies the WAL into the database file and removes it when no other process
    /// has the store open.
    func close() throws {
        waitForCheckpointAside()
        try readers.close()
        if let writer = lock.withLock({ writer }) {
            writer.releaseMemory()
            try writer.close()
        }
    }
}

/// How a pool opens its side connection, handed to the thread that checkpoints: the closure
/// only reads what it captured when the store was opened (its location and configuration), and
/// one thread at a time calls it.
private struct SideConnectionOpener: @unchecked Sendable {
    let open: () throws -> DatabaseQueue
}
