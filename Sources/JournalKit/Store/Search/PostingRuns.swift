import Foundation
import GRDB

/// The postings of an insert indexed in several batches, staged as one run per batch and
/// merged into the owners' segments (``PostingSegments``) every few batches, instead of
/// written there at every batch.
///
/// Written at once, each batch rewrote the last segment of every token and prefix key it used:
/// a page each, as many as the batch's distinct tokens and keys, many of them pages that the
/// batch before had rewritten too, each written twice (into the log, then the store). A run is
/// appended in owner order, new pages only, and a merge rewrites a token's page once for
/// all the runs it joins: the merging batch, when it only adds entries, stages its own first.
///
/// Invariant: every staged posting belongs to a new entry that readers do not see
/// (``SearchVisibility`` hides the insert from its first entry on), and the runs are merged no
/// later than in the transaction that shows those entries; so readers, which read segments
/// only, answer as if every batch had written its postings there. A row's id packs the run's
/// number and the owner's id (`run << 32 | owner`): a run is one rowid range, in owner order.
struct PostingRuns: Sendable {
    /// Where the runs go when merged.
    let segments: PostingSegments

    static let tokens = PostingRuns(segments: .tokens)
    static let prefixKeys = PostingRuns(segments: .prefixKeys)
    static let all = [tokens, prefixKeys]

    /// The table: `posting_run` (tokens) or `prefix_posting_run` (prefix keys).
    var table: String { segments.table + "_run" }

    /// The tables' definitions, as the migration that made them has them: the store's format
    /// v16 adds the prefix keys' table a column of positions (``SearchStore``).
    static let schema = """
        CREATE TABLE posting_run (id INTEGER PRIMARY KEY, documents BLOB NOT NULL, positions BLOB NOT NULL);
        CREATE TABLE prefix_posting_run (id INTEGER PRIMARY KEY, documents BLOB NOT NULL);
        """

    private static let ownerMask: Int64 = 0xFFFF_FFFF

    /// The runs staged: how many, and the number the next one takes.
    static func staged(in db: Database) throws -> (count: Int, next: Int64) {
        var (low, high): (Int64?, Int64?) = (nil, nil)
        for runs in all {
            guard let bounds = try runs.runBounds(in: db) else { continue }
            (low, high) = (
                min(low ?? bounds.lowerBound, bounds.lowerBound), max(high ?? bounds.upperBound, bounds.upperBound)
            )
        }
        guard let low, let high else { return (0, 0) }
        return (Int(high - low + 1), high + 1)
    }

    /// The first and last run staged in this table, nil when none is: two index seeks (a
    /// query of both `min` and `max` would read every row).
    private func runBounds(in db: Database) throws -> ClosedRange<Int64>? {
        guard
            let first = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id >> 32 FROM \(table) ORDER BY id LIMIT 1")),
            let last = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id >> 32 FROM \(table) ORDER BY id DESC LIMIT 1"))
        else { return nil }
        return first...last
    }

    /// Hands `body` the entry numbers of `owner` in each staged run (a whole ``DeltaList``, with
    /// no first number apart), in order: its entries in every run, ascending (the runs are in
    /// entry order), as ``PostingSegments/forEachList(of:in:_:)`` hands those of its segments.
    func forEachList(of owner: Int64, in db: Database, _ body: (_ first: Int64?, _ list: Data) -> Void) throws {
        guard let runs = try runBounds(in: db) else { return }
        let read = try db.cachedStatement(sql: "SELECT documents FROM \(table) WHERE id = ?")
        for run in runs {
            if let documents = try Data.fetchOne(read, arguments: [run << 32 | owner]) { body(nil, documents) }
        }
    }

    /// Hands `body` each entry of `owner` in the staged runs with its position list there,
    /// undecoded, in order, as ``PostingSegments/forEachPositionList(owners:within:in:_:)`` hands
    /// those of segments.
    func forEachPositionList(
        of owner: Int64, in db: Database, _ body: (_ entry: Int64, _ list: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard let runs = try runBounds(in: db) else { return }
        let read = try db.cachedStatement(sql: "SELECT documents, positions FROM \(table) WHERE id = ?")
        for run in runs {
            let rows = try Row.fetchCursor(read, arguments: [run << 32 | owner])
            while try rows.next() != nil {
                try read.withBlob(atColumn: 0) { documents in
                    try read.withBlob(atColumn: 1) { positions in
                        try PostingSegments.forEachPositionList(
                            first: nil, documents: documents.assumingMemoryBound(to: UInt8.self),
                            positions: positions.assumingMemoryBound(to: UInt8.self), body)
                    }
                }
            }
        }
    }

    /// Stages `adding` as run `run`: the postings `adding(i)` of owner `ids[i]`, none for an
    /// id of 0 (a prefix key left without a row).
    func stage(_ adding: (Int) -> PostingSegments.Added, ids: [Int64], run: Int64, in db: Database) throws {
        var insert = MultiRowInsert<(id: Int64, added: PostingSegments.Added)>(
            into: table, columns: ["id", "documents", "positions"], in: db
        ) { bind, first, row in
            bind.bind(first, row.id)
            bind.bind(first + 1, DeltaList.bytes(row.added.documents))
            bind.bind(first + 2, row.added.positions)
        }
        for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) where ids[index] != 0 {
            let added = adding(index)
            guard !added.documents.isEmpty else { continue }
            try insert.add((run << 32 | ids[index], added))
        }
        try insert.flush()
    }

    /// Merges every staged run into the segments, owner after owner, and empties the table.
    ///
    /// An owner numbered above ``PostingSegments/lastOwner(in:)`` (a token the staged batches
    /// added) has none to append to: its segments are inserted many to a statement, nothing read.
    func merge(tails: inout PostingTails, in db: Database) throws {
        guard let runs = try runBounds(in: db) else { return }
        let lastWithSegments = try segments.lastOwner(in: db)
        // One cursor per run, each in owner order; the runs are in entry order. A head is the
        // owner of the row a run's statement is on, whose values are read in place.
        let statements = try runs.map { _ in try db.makeStatement(sql: selectLinks + " WHERE id BETWEEN ? AND ?") }
        let cursors = try zip(statements, runs).map { statement, run in
            try Row.fetchCursor(statement, arguments: [run << 32, run << 32 | Self.ownerMask])
        }
        func head(_ run: Int) throws -> Int64? {
            try cursors[run].next() == nil ? nil : statements[run].int64(atColumn: 0)
        }
        var heads = try cursors.indices.map(head)
        let recent = try segments.recentRows(in: db)
        var newSegments = segments.newSegments(in: db)
        var added = (documents: [Int64](), positions: [UInt8]())
        while let owner = heads.lazy.compactMap({ $0 }).min() {
            added.documents.removeAll(keepingCapacity: true)
            added.positions.removeAll(keepingCapacity: true)
            for run in heads.indices where heads[run] == owner {
                statements[run].withBlob(atColumn: 1) { bytes in
                    DeltaList.forEach(in: bytes) { added.documents.append($0) }
                }
                statements[run].withBlob(atColumn: 2) { added.positions.append(contentsOf: $0) }
                heads[run] = try head(run)
            }
            let adding = PostingSegments.Added(documents: added.documents[...], positions: added.positions[...])
            if owner > lastWithSegments {
                try segments.add(owner: owner, adding: adding, tails: &tails, into: &newSegments)
            } else {
                _ = try segments.update(
                    owner: owner, adding: adding, removing: [], tails: &tails, recent: recent, in: db)
            }
        }
        try newSegments.flush()
        try db.execute(sql: "DELETE FROM \(table)")
    }

    /// Hands `body` every staged (owner, entry) link, with the owner's position list in the
    /// entry as ``PostingSegments/forEachLink(in:_:)`` does; none in a store without the table
    /// (one opened read-only before it had one).
    func forEachLink(
        in db: Database, _ body: (_ owner: Int64, _ entry: Int64, _ positions: UnsafeBufferPointer<UInt8>) -> Void
    ) throws {
        guard try db.tableExists(table) else { return }
        try segments.forEachLink(in: try Row.fetchCursor(db, sql: selectLinks), body)
    }

    /// Reads the staged rows as (owner, documents, positions, no first number apart), as segments
    /// are read.
    private var selectLinks: String {
        "SELECT id & \(Self.ownerMask), documents, positions, NULL FROM \(table)"
    }
}
