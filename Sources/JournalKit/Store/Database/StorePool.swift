import Foundation
import GRDB

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
    private let lock = NSLock()
    private var writer: DatabasePool?
    private let file: URL?
    private let fileIdentity: FileIdentity?
    private let beforeRead: (@Sendable (Database) throws -> Void)?

    /// `readers` answers reads; `openWriter` opens the writer, or is nil when the store can't
    /// be written; `durability` is kept in force on the writer; `file` is the store's path;
    /// `beforeRead` runs first in every read transaction (the main store hides a pending
    /// import's entries there).
    init(
        readers: any DatabaseReader, durability: Durability, file: URL? = nil,
        beforeRead: (@Sendable (Database) throws -> Void)? = nil, openWriter: (() throws -> DatabasePool)?
    ) {
        self.readers = readers
        self.beforeRead = beforeRead
        self.durability = durability
        self.openWriter = openWriter
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
        try writeWithoutTransaction { db in
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
    }

    /// Runs `body` on the writer outside any transaction (for statements that can't run in one).
    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try currentWriter().writeWithoutTransaction { db in
            try durability.enforce(on: db)
            return try body(db)
        }
    }

    /// Applies `migrator`'s missing migrations, checking with a read first, so that opening an
    /// up-to-date store neither writes nor waits for another process's write lock. A store that
    /// can't be written and lacks only migrations named in `optional` (ones that add what
    /// makes reads faster, never what they need) is used as it is.
    func migrate(with migrator: DatabaseMigrator, optional: Set<String> = []) throws {
        guard try !read(migrator.hasCompletedMigrations) else { return }
        if openWriter == nil {
            let missing = try read { db in try Set(migrator.migrations).subtracting(migrator.appliedIdentifiers(db)) }
            if missing.isSubset(of: optional) { return }
        }
        let writer = try currentWriter()
        try writer.writeWithoutTransaction(durability.enforce(on:))
        try migrator.migrate(writer)
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
        try readers.close()
        if let writer = lock.withLock({ writer }) {
            writer.releaseMemory()
            try writer.close()
        }
    }
}

/// Which file a path names: its device and inode.
private struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
