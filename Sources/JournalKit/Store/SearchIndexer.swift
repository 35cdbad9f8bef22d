import Foundation
import GRDB
import JournalText

/// Brings the search store up to date with the main store: the one path by which tokens
/// are written, after an add, an edit, a delete, an import, or a crash in the middle of any.
///
/// Each step reads the main store's change history (or, for a new or replaced search store,
/// every entry) in one snapshot, computes tokens from the stored canonical text, and applies
/// them in one search-store transaction that also saves how far it got.
struct SearchIndexer {
    let main: MainStore
    let search: SearchStore
    /// Entries per search-store transaction.
    var batchSize = 5_000

    /// Applies every change the search store has not seen yet, then rewrites the prefix table
    /// snapshot if it has fallen behind.
    func catchUp(progress: ProgressHandler? = nil) throws(JournalError) {
        guard try !isCaughtUp() else { return }
        var done = 0
        var total: Int?
        while true {
            let step = try StoreDatabase.guarded(search.url) { () throws -> Int? in
                try search.pool.write { searchDB in try applyNextBatch(in: searchDB, total: &total) }
            }
            guard let applied = step else { break }
            done += applied
            progress?(JournalProgress(phase: .indexing, done: done, total: total.map { max($0, done) }))
        }
        try StoreDatabase.guarded(search.url) {
            try search.pool.write { db in
                if try PrefixSnapshot.isStale(in: db) { try PrefixSnapshot.write(in: db) }
            }
        }
    }

    /// Whether there is nothing to apply, found with reads only, so that a search never waits
    /// for the search store's write lock when there is nothing to write.
    private func isCaughtUp() throws(JournalError) -> Bool {
        let position = try StoreDatabase.guarded(search.url) { try search.pool.read(SearchStore.position(in:)) }
        guard !position.isFresh, position.rebuildFrom == nil, position.resumeAfterEntry == 0 else { return false }
        let snapshotIsStale = try StoreDatabase.guarded(search.url) { try search.pool.read(PrefixSnapshot.isStale(in:)) }
        let lastChange = try StoreDatabase.guarded(main.url) { try main.pool.read(MainStore.lastChange(in:)) }
        return position.appliedChange == lastChange && !snapshotIsStale
    }

    /// One batch; nil when there was nothing left to apply.
    private func applyNextBatch(in searchDB: Database, total: inout Int?) throws -> Int? {
        var position = try SearchStore.position(in: searchDB)
        let start = position
        let work = try main.pool.read { mainDB in
            if position.isFresh {
                try SearchStore.reset(in: searchDB, lastChange: MainStore.lastChange(in: mainDB))
                position = try SearchStore.position(in: searchDB)
            }
            if total == nil { total = try Self.pendingEntries(after: position, in: mainDB) }
            return try collectWork(from: mainDB, advancing: &position)
        }
        guard position != start else { return nil }
        let tokens = work.upserts.parallelMap { Tokens.of(canonical: $0.canonical) }
        var writer = SearchStoreWriter(db: searchDB, storeID: main.storeID)
        for range in work.removals { try writer.removeDocuments(in: range) }
        for (row, rowTokens) in zip(work.upserts, tokens) {
            try writer.upsert(number: row.number, date: row.date, tokens: rowTokens)
        }
        try writer.collectUnusedTokens()
        try SearchStore.save(position, in: searchDB)
        return work.upserts.count + work.removals.count
    }

    private struct Work {
        var upserts: [MainStore.CanonicalRow] = []
        var removals: [ClosedRange<Int64>] = []
    }

    /// What to apply next, read from one snapshot of the main store: the current state of each
    /// entry a pending change touched. Every step is idempotent, so a batch that a crash undid
    /// is simply done again.
    private func collectWork(from db: Database, advancing position: inout SearchStore.Position) throws -> Work {
        var work = Work()
        if let rebuildFrom = position.rebuildFrom {
            work.upserts = try MainStore.canonicalRows(in: db, rebuildFrom...Int64.max, limit: batchSize)
            position.rebuildFrom = work.upserts.count < batchSize ? nil : work.upserts[work.upserts.count - 1].number + 1
            return work
        }
        var budget = batchSize
        for change in try MainStore.changes(in: db, after: position.appliedChange, limit: 1_000) {
            guard budget > 0 else { break }
            switch change.kind {
            case .delete:
                work.removals.append(change.entries)
                budget -= 1
            case .insert, .update:
                let from = max(change.entries.lowerBound, position.resumeAfterEntry + 1)
                let rows = try MainStore.canonicalRows(in: db, from...change.entries.upperBound, limit: budget)
                work.upserts += rows
                budget -= rows.count
                if budget == 0, let last = rows.last, last.number < change.entries.upperBound {
                    position.resumeAfterEntry = last.number
                    return work
                }
            }
            position.appliedChange = change.sequence
            position.resumeAfterEntry = 0
        }
        return work
    }

    /// About how many entries the pending changes hold, for progress.
    private static func pendingEntries(after position: SearchStore.Position, in db: Database) throws -> Int {
        let changed = try Int.fetchOne(
            db, sql: "SELECT coalesce(sum(last - first + 1), 0) FROM change WHERE seq > ?",
            arguments: [position.appliedChange]) ?? 0
        guard let rebuildFrom = position.rebuildFrom else { return changed }
        let rebuilt = try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE n >= ?", arguments: [rebuildFrom]) ?? 0
        return changed + rebuilt
    }
}

/// Writes documents, tokens and postings inside one search-store transaction.
struct SearchStoreWriter {
    let db: Database
    let storeID: UUID
    /// Token ids known in this transaction (another process may remove unused tokens between
    /// transactions, so ids are never trusted across them).
    private var tokenIDs: [String: Int64] = [:]
    /// Tokens that lost a posting: removed at the end if no document uses them any more.
    private var maybeUnused = Set<Int64>()

    init(db: Database, storeID: UUID) {
        self.db = db
        self.storeID = storeID
    }

    /// Indexes entry `number` with these tokens, replacing what the store had for it.
    mutating func upsert(number: Int64, date: JournalDate, tokens: [String]) throws {
        try removePostings(ofDocument: number)
        var ids: [Int64] = []
        ids.reserveCapacity(tokens.count)
        for token in tokens { ids.append(try tokenID(for: token)) }
        try db.cachedStatement(sql: """
            INSERT INTO document (id, uri, date, tokens) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET date = excluded.date, tokens = excluded.tokens
            """).execute(arguments: [number, EntryID(storeID: storeID, number: number).uri, date.microseconds, TokenIDList.encode(ids)])
        let insertPosting = try db.cachedStatement(sql: "INSERT OR IGNORE INTO posting (token, document) VALUES (?, ?)")
        for id in ids {
            try insertPosting.execute(arguments: [id, number])
            maybeUnused.remove(id)
        }
    }

    /// Removes the documents numbered in `range`.
    mutating func removeDocuments(in range: ClosedRange<Int64>) throws {
        let numbers = try Int64.fetchAll(db, sql: "SELECT id FROM document WHERE id BETWEEN ? AND ?", arguments: [range.lowerBound, range.upperBound])
        for number in numbers {
            try removePostings(ofDocument: number)
            try db.execute(sql: "DELETE FROM document WHERE id = ?", arguments: [number])
        }
    }

    /// Deletes tokens that no document uses any more.
    mutating func collectUnusedTokens() throws {
        let stillUsed = try db.cachedStatement(sql: "SELECT 1 FROM posting WHERE token = ? LIMIT 1")
        for id in maybeUnused where try Int.fetchOne(stillUsed, arguments: [id]) == nil {
            try db.execute(sql: "DELETE FROM token WHERE id = ?", arguments: [id])
        }
        maybeUnused.removeAll()
    }

    private mutating func removePostings(ofDocument number: Int64) throws {
        guard let encoded = try Data.fetchOne(db.cachedStatement(sql: "SELECT tokens FROM document WHERE id = ?"), arguments: [number])
        else { return }
        let delete = try db.cachedStatement(sql: "DELETE FROM posting WHERE token = ? AND document = ?")
        for id in TokenIDList.decode(encoded) {
            try delete.execute(arguments: [id, number])
            maybeUnused.insert(id)
        }
    }

    private mutating func tokenID(for token: String) throws -> Int64 {
        if let id = tokenIDs[token] { return id }
        let id: Int64
        if let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM token WHERE text = ?"), arguments: [token]) {
            id = existing
        } else {
            try db.cachedStatement(sql: "INSERT INTO token (text) VALUES (?)").execute(arguments: [token])
            id = db.lastInsertedRowID
        }
        tokenIDs[token] = id
        return id
    }
}
