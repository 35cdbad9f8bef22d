import Foundation
import GRDB
import GRDBSQLite

/// What the journal's stores share: a file and its connections, read and written so that every
/// failure is one ``JournalError`` naming the file, and a read stops when its search is
/// cancelled. Code outside `Store/` reaches a store's tables only through these and the
/// store's named methods.
package protocol StoreFile: Sendable {
    /// The store's file.
    var url: URL { get }
    /// Its connections.
    var pool: StorePool { get }
}

extension StoreFile {
    /// Runs `body` in one read transaction; once `cancellation` is raised, SQLite interrupts
    /// the statement running and the read fails as cancelled.
    package func read<T>(cancellation: Cancellation? = nil, _ body: (Database) throws -> T) throws(JournalError) -> T {
        try cancellation?.check()
        return try StoreDatabase.guarded(url) {
            try pool.read { db in
                guard let cancellation else { return try body(db) }
                return try cancellation.watching(db) { try body(db) }
            }
        }
    }

    /// Runs `body` in one write transaction, committed as durably as the store requires.
    package func write<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try StoreDatabase.guarded(url) { try pool.write(body) }
    }

    /// Copies the WAL's pages into the store file and empties the WAL, after a large write.
    ///
    /// The last close of a store copies what is left of its WAL and deletes it while holding the
    /// store's exclusive lock, and a process opening the store meanwhile waits (SQLite's busy
    /// handler sleeps in steps, long ones after the first, so a search started as an import ends
    /// can sleep for a WAL that was only copied, not emptied). Emptied here, that close has a file of no bytes to delete.
    /// Readers go on meanwhile; when one still reads an older state after
    /// ``StoreDatabase/checkpointWait``, the pages are copied as far as it allows and the WAL
    /// stays (a passive checkpoint).
    package func checkpoint() throws(JournalError) {
        try StoreDatabase.guarded(url) { try pool.checkpoint() }
    }

    /// Runs `body` in one write transaction whose commit leaves its pages in the WAL
    /// (``StorePool/writeLeavingLog(_:)``): `leftLog` says whether a checkpoint
    /// (``checkpointAside(emptying:start:)``) should follow.
    func writeLeavingLog<T>(_ body: (Database) throws -> T) throws(JournalError) -> (value: T, leftLog: Bool) {
        try StoreDatabase.guarded(url) { try pool.writeLeavingLog(body) }
    }

    /// Copies the WAL into the store file on a thread of its own while the caller goes on
    /// (``StorePool/checkpointAside(emptying:start:)``), a thread `start` starts.
    func checkpointAside(emptying: Bool, start: StorePool.AsideThread) throws(JournalError) {
        try pool.checkpointAside(emptying: emptying, start: start)
    }

    /// Returns once the checkpoint aside, if one was started, is done.
    func waitForCheckpointAside() {
        pool.waitForCheckpointAside()
    }

    /// Closes the store's connections now, on the calling thread; on the last close of a store,
    /// SQLite folds its WAL back into it.
    package func close() throws(JournalError) {
        try StoreDatabase.guarded(url) { try pool.close() }
    }
}

extension Cancellation {
    /// Runs `body` with SQLite interrupting `db`'s statements once the flag is raised (they then
    /// fail with `SQLITE_INTERRUPT`, which the stores report as cancelled).
    func watching<T>(_ db: Database, _ body: () throws -> T) rethrows -> T {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(
            db.sqliteConnection, 10_000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<Cancellation>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, context)
        defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        return try withExtendedLifetime(self) { try body() }
    }
}
