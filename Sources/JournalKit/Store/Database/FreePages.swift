import GRDB

/// The pages of a store's file that no table holds: left by rows removed (a large import's
/// staged postings, once merged; a store emptied to be rebuilt), and reused by later writes.
/// A store made to give them back (SQLite's incremental vacuum) returns them to the file system
/// once they are a good part of the file, so that the file is no bigger than its tables need
/// and a little room to grow.
///
/// Invariant: a store whose file gives pages back holds at most a tenth of its pages free, or
/// fewer than ``slackPages``, after each ``giveBack(in:)``.
enum FreePages {
    /// Free pages a store keeps without giving them back: what a write reuses without growing
    /// the file, and not worth moving pages for.
    static let slackPages = 256

    /// The store's free pages and all its pages.
    static func count(in db: Database) throws -> (free: Int, pages: Int) {
        (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0, try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
    }

    /// The bytes of the store's free pages.
    static func bytes(in db: Database) throws -> Int {
        try count(in: db).free * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
    }

    /// Gives the free pages back, in `db`'s write transaction, when they are over a tenth of the
    /// file and over ``slackPages``: SQLite moves the pages at the file's end into the free
    /// ones, and the file shrinks when its log is next copied into it. Nothing happens in a file
    /// not made to give pages back.
    static func giveBack(in db: Database) throws {
        let (free, pages) = try count(in: db)
        guard free > slackPages, free * 10 > pages else { return }
        try db.execute(sql: "PRAGMA incremental_vacuum")
    }

    /// Makes an empty store give pages back from now on, rewriting its file (nearly nothing, as
    /// it holds no rows): for a store made before it gave them back. Outside any transaction.
    static func makeGiveBack(in db: Database) throws {
        guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 else { return }
        try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
        try db.execute(sql: "VACUUM")
    }
}
