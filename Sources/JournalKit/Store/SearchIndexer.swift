import Foundation
import GRDB
import JournalText

/// Brings the search store up to date with the main store: the one path by which tokens
/// are written, after an add, an edit, a delete, an import, or a crash in the middle of any.
///
/// Each step reads the main store's change history (or, for a new or replaced search store,
/// every entry) in one snapshot, computes tokens from the stored canonical text, and applies
/// them in one search-store transaction that also saves how far it got. A second thread reads
/// and analyses the next batch while the current one is written, so both cores work.
struct SearchIndexer {
    let main: MainStore
    let search: SearchStore
    /// Entries per search-store transaction.
    var batchSize = 20_000

    /// Applies every change the search store has not seen yet, then rewrites the prefix table
    /// snapshot if it has fallen behind.
    func catchUp(progress: ProgressHandler? = nil) throws(JournalError) {
        guard try !isCaughtUp() else { return }
        var done = 0
        // Another process may catch up at the same time; when it moved the position under us,
        // the batches prepared from the old one are dropped and preparing starts again.
        while try !applyPreparedBatches(done: &done, progress: progress) {}
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

    /// One batch, read and analysed, ready to write.
    private struct PreparedBatch: Sendable {
        /// The position the search store must be at for this batch to apply, and after it.
        let from: SearchStore.Position
        let to: SearchStore.Position
        let removals: [ClosedRange<Int64>]
        let rows: [MainStore.CanonicalRow]
        let tokens: [[String]]
        var count: Int { rows.count + removals.count }
    }

    /// Prepares batches on another thread and writes them here. Returns false when the saved
    /// position was not the expected one (another process caught up meanwhile).
    private func applyPreparedBatches(done: inout Int, progress: ProgressHandler?) throws(JournalError) -> Bool {
        let (start, total) = try StoreDatabase.guarded(search.url) {
            try search.pool.write { searchDB in
                try main.pool.read { mainDB in
                    if try SearchStore.position(in: searchDB).isFresh {
                        try SearchStore.reset(in: searchDB, lastChange: MainStore.lastChange(in: mainDB))
                    }
                    let position = try SearchStore.position(in: searchDB)
                    return (position, try Self.pendingEntries(after: position, in: mainDB))
                }
            }
        }
        let handOff = HandOff<Result<PreparedBatch, JournalError>>()
        let producer = Thread { [self] in
            var position = start
            while true {
                let batch = Result { () throws(JournalError) in try prepareBatch(from: position) }
                guard case .success(let prepared?) = batch else {
                    if case .failure(let error) = batch { _ = handOff.put(.failure(error)) }
                    break
                }
                guard handOff.put(.success(prepared)) else { break }
                position = prepared.to
            }
            handOff.finish()
        }
        producer.stackSize = 4 << 20
        producer.start()
        defer { handOff.cancel() }
        var tokenIDs = TokenIDCache()
        let doneBefore = done
        while let next = handOff.take() {
            let batch = try next.get()
            let applied = try StoreDatabase.guarded(search.url) {
                try search.pool.write { searchDB in try apply(batch, in: searchDB, tokenIDs: &tokenIDs) }
            }
            guard applied else { return false }
            done += batch.count
            progress?(JournalProgress(phase: .indexing, done: done, total: max(doneBefore + total, done)))
        }
        return true
    }

    /// Reads and analyses the batch after `position`; nil when there is nothing left.
    private func prepareBatch(from position: SearchStore.Position) throws(JournalError) -> PreparedBatch? {
        var next = position
        let work = try StoreDatabase.guarded(main.url) { try main.pool.read { db in try collectWork(from: db, advancing: &next) } }
        guard next != position else { return nil }
        // Several changes may touch one entry; its current state is indexed once, in number order.
        var latest: [Int64: MainStore.CanonicalRow] = [:]
        for row in work.upserts { latest[row.number] = row }
        let rows = latest.values.sorted { $0.number < $1.number }
        let tokens = rows.parallelMap { Tokens.of(canonical: $0.canonical) }
        return PreparedBatch(from: position, to: next, removals: work.removals, rows: rows, tokens: tokens)
    }

    /// Writes one batch; false (and nothing written) when the store is not where the batch starts.
    private func apply(_ batch: PreparedBatch, in searchDB: Database, tokenIDs: inout TokenIDCache) throws -> Bool {
        guard try SearchStore.position(in: searchDB) == batch.from else { return false }
        try tokenIDs.validate(in: searchDB)
        var writer = SearchStoreWriter(db: searchDB, storeID: main.storeID)
        for range in batch.removals { try writer.removeDocuments(in: range) }
        for (row, rowTokens) in zip(batch.rows, batch.tokens) {
            try writer.upsert(number: row.number, date: row.date, tokens: rowTokens, ids: &tokenIDs)
        }
        try writer.finish(ids: &tokenIDs)
        try SearchStore.save(batch.to, in: searchDB)
        return true
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
