import Foundation
import GRDB

/// The postings of an insert indexed in several batches, staged as one run per batch and
/// merged into the owners' segments (``PostingSegments``) every few batches, instead of
/// written there at every batch.
///
/// Written at once, each batch rewrote the last segment of every token and prefix key it used:
/// a page each, ~70,000 a batch at a million entries, most of them pages that the batch before
/// had rewritten too, each written twice (into the log, then the store). A run is appended in
/// owner order, a few megabytes of new pages, and a merge rewrites a token's page once for
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

    /// The tables' definitions.
    static let schema = """
        CREATE TABLE posting_run (id INTEGER PRIMARY KEY, documents BLOB NOT NULL, positions BLOB NOT NULL);
        CREATE TABLE prefix_posting_run (id INTEGER PRIMARY KEY, documents BLOB NOT NULL);
        """

    private static let ownerMask: Int64 = 0xFFFF_FFFF

    /// The runs staged: how many, and the number the next one takes.
    static func staged(in db: Database) throws -> (count: Int, next: Int64) {
        var (low, high): (Int64?, Int64?) = (nil, nil)
        for runs in all {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT min(id) >> 32, max(id) >> 32 FROM \(runs.table)")),
                let first = row[0] as Int64?, let last = row[1] as Int64?
            else { continue }
            (low, high) = (min(low ?? first, first), max(high ?? last, last))
        }
        guard let low, let high else { return (0, 0) }
        return (Int(high - low + 1), high + 1)
    }

    /// Stages `adding` as run `run`: owner `i`'s postings under the id `ids[i]`.
    func stage(_ adding: BatchPostings, ids: [Int64], run: Int64, in db: Database) throws {
        let hasPositions = segments.hasPositions
        var insert = MultiRowInsert<(id: Int64, added: PostingSegments.Added)>(
            into: table, columns: hasPositions ? ["id", "documents", "positions"] : ["id", "documents"], in: db
        ) { bind, first, row in
            bind.bind(first, row.id)
            bind.bind(first + 1, DeltaList.bytes(row.added.documents))
            if hasPositions { bind.bind(first + 2, row.added.positions) }
        }
        for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) {
            let added = adding[index]
            guard !added.documents.isEmpty else { continue }
            try insert.add((run << 32 | ids[index], added))
        }
        try insert.flush()
    }

    /// Merges every staged run into the segments, owner after owner, and empties the table.
    func merge(tails: inout PostingTails, in db: Database) throws {
        guard let bounds = try Row.fetchOne(db, sql: "SELECT min(id) >> 32, max(id) >> 32 FROM \(table)"),
            let first = bounds[0] as Int64?, let last = bounds[1] as Int64?
        else { return }
        // One cursor per run, each in owner order; the runs are in entry order.
        var cursors = try (first...last).map { run in
            try Row.fetchCursor(
                db.makeStatement(sql: selectLinks + " WHERE id BETWEEN ? AND ?"),
                arguments: [run << 32, run << 32 | Self.ownerMask])
        }
        var heads = try cursors.indices.map { try Self.head(of: &cursors[$0]) }
        while let owner = heads.compactMap({ $0?.owner }).min() {
            var added = (documents: [Int64](), positions: [UInt8]())
            for run in heads.indices {
                guard let head = heads[run], head.owner == owner else { continue }
                DeltaList.forEach(in: head.documents) { added.documents.append($0) }
                added.positions += head.positions
                heads[run] = try Self.head(of: &cursors[run])
            }
            _ = try segments.update(
                owner: owner,
                adding: PostingSegments.Added(documents: added.documents[...], positions: added.positions[...]),
                removing: [], tails: &tails, in: db)
        }
        try db.execute(sql: "DELETE FROM \(table)")
    }

    private static func head(of cursor: inout RowCursor) throws -> (owner: Int64, documents: Data, positions: Data)? {
        guard let row = try cursor.next() else { return nil }
        return (row[0], row[1], row[2])
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

    /// Reads the staged rows as (owner, documents, positions), as segments are read.
    private var selectLinks: String {
        "SELECT id & \(Self.ownerMask), documents, \(segments.positionsColumn) FROM \(table)"
    }
}
