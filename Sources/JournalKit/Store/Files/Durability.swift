import GRDB

/// What a power cut may take from a store file: decided here, for every SQLite file of a
/// journal, and kept in force on its writer connection before every write.
///
/// Invariant: the main store is ``durableAtCommit``: a write that returned has reached stable
/// storage. The search store is ``mayLag``: it is derived from the main store, records how far it
/// got, and catches up after a cut, so its commits need not wait for the disk.
///
/// In WAL mode (every store's), SQLite's `synchronous` settings mean:
/// - `FULL` syncs the WAL at every commit, before the commit returns; the first sync of a WAL
///   file it created also syncs the folder, so the WAL's name survives too.
/// - `EXTRA` adds a sync of the folder after a rollback journal is deleted, which WAL mode never
///   does: in WAL mode it is `FULL` (the same system calls, traced with strace), so `FULL` it is.
/// - `NORMAL` syncs the WAL only before a checkpoint copies it into the database: a cut can lose
///   the last commits, never leave one half-applied. GRDB's `DatabasePool` sets it when it sets
///   up WAL mode, after `Configuration.prepareDatabase` has run, which is why the level is set
///   here, on the open writer, and checked again before each write.
package enum Durability: Sendable {
    /// Every commit is on stable storage before it returns (`PRAGMA synchronous = FULL`).
    case durableAtCommit
    /// The last commits may be lost to a power cut, never half-applied (`synchronous = NORMAL`).
    case mayLag

    /// The value of `PRAGMA synchronous` for this level, as SQLite reports it.
    private var synchronous: Int {
        switch self {
        case .durableAtCommit: 2
        case .mayLag: 1
        }
    }

    /// Puts this level in force on `db`, a writer connection outside any transaction, unless it
    /// is already; throws when SQLite does not take it.
    func enforce(on db: Database) throws {
        let current = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA synchronous"))
        guard current != synchronous else { return }
        try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        guard try Int.fetchOne(db.cachedStatement(sql: "PRAGMA synchronous")) == synchronous else {
            throw DatabaseError(message: "SQLite did not take PRAGMA synchronous = \(synchronous)")
        }
    }
}
