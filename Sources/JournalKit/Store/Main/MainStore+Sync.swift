import GRDB
import JournalText

extension MainStore {
    /// Runs `body` in one write transaction (refused while an import is pending).
    func syncTransaction<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try guarded { try writeUnlessImportPending(body) }
    }
}

/// The main store's writes for sync, inside the transaction that also updates the
/// ``SyncLedger``: an entry's state as another device made it, written as any write is (its
/// canonical text and text tags with it), many entries a transaction as an import writes them,
/// and the changes recorded once for all of them by ``finish()``, for the derived stores.
struct SyncedEntryWriter {
    private let main: MainStore
    private let db: Database
    private let hooks: MainStore.WriteHooks
    private var inserter: EntryInserter
    private var added: [Int64] = []
    private var changed: [Int64] = []
    private var deleted: [Int64] = []

    init(_ main: MainStore, _ hooks: MainStore.WriteHooks, in db: Database) throws {
        self.main = main
        self.db = db
        self.hooks = hooks
        inserter = try EntryInserter(db)
    }

    /// Writes `prepared` (a state another device made: ``PreparedEntry/init(synced:)``) into
    /// entry `n`, or into a new entry when `n` is nil or names no entry; returns the entry's
    /// number.
    mutating func write(_ prepared: PreparedEntry, into n: Int64?) throws -> Int64 {
        guard let n else { return try insert(prepared) }
        // The tags of entries inserted so far are written before any entry's tags change.
        try inserter.finish()
        try db.cachedStatement(
            sql:
                "UPDATE entry SET date = ?, text = CAST(? AS TEXT), canonical = CAST(? AS TEXT), starred = ? WHERE n = ?"
        ).execute(arguments: [
            prepared.date.microseconds, ExactText(prepared.text), ExactText(prepared.canonical), prepared.starred, n,
        ])
        guard db.changesCount > 0 else { return try insert(prepared) }
        try EntryTags.replaceTextTags(prepared.textTags, for: n, in: db)
        try db.cachedStatement(sql: "DELETE FROM tag WHERE entry = ? AND given = 1").execute(arguments: [n])
        try EntryTags.insert(prepared.givenTags, given: true, for: n, in: db)
        changed.append(n)
        return n
    }

    private mutating func insert(_ prepared: PreparedEntry) throws -> Int64 {
        guard let number = try inserter.insertUnlessPresent(prepared, before: nil) else {
            throw JournalError.store("an entry received by sync was taken for one the journal holds")
        }
        added.append(number)
        return number
    }

    /// Deletes entry `n`, if there is one.
    mutating func delete(_ n: Int64) throws {
        try inserter.finish()
        try db.cachedStatement(sql: "DELETE FROM entry WHERE n = ?").execute(arguments: [n])
        if db.changesCount > 0 { deleted.append(n) }
    }

    /// Writes what is left and records the changes: before the transaction ends.
    mutating func finish() throws {
        try inserter.finish()
        for (kind, numbers) in [(Change.Kind.insert, added), (.update, changed), (.delete, deleted)]
        where !numbers.isEmpty {
            try main.record(kind, Change.runs(of: numbers), hooks, in: db)
        }
        (added, changed, deleted) = ([], [], [])
    }
}
