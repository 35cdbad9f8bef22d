import Foundation
import GRDB

/// Recent segments: where a write of entries numbered above every entry of the store puts each
/// owner's new entries, when the owner has segments, instead of rewriting its last one.
///
/// Rewriting the last segment of every token and prefix key an import shares with the journal
/// rewrites most pages of the posting tables when the journal is not much larger than the
/// import, each page through the log. Recent segments are appended to a table
/// of their own, a few new pages, and are merged into the segments once they hold more of the
/// journal's entries than the segments do (``MergePolicy``), as FTS5 merges its newer segments
/// into larger ones.
///
/// Invariant: an owner has recent segments only if it has segments, and every number in them is
/// above every number in its segments (see ``PostingSegments``); each owner's recent segments
/// are laid out and filled as its segments are. Any other change to an owner's postings merges
/// its recent segments first.
extension PostingSegments {
    /// What a writer knows of the recent segments before it writes.
    enum RecentRows: Sendable, Equatable {
        /// No recent segment (or no table for them): nothing to read before appending, or to
        /// merge before another change.
        case absent
        /// There may be some.
        case possible
    }

    /// The recent segments' table: `posting_recent` (tokens) or `prefix_posting_recent` (prefix keys).
    var recentTable: String { table + "_recent" }

    /// The tables' definitions, as the migration that made them has them: the store's format
    /// v16 adds the prefix keys' table a column of positions (``SearchStore``).
    static let recentSchema = """
        CREATE TABLE posting_recent (
            id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL
        );
        CREATE TABLE prefix_posting_recent (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL);
        """

    /// The tables a reader reads, in order: the segments, then the recent ones (unless the
    /// store has no table for them: one opened read-only before it had one).
    func tables(in db: Database) throws -> [String] {
        try db.tableExists(recentTable) ? [table, recentTable] : [table]
    }

    /// Whether there may be recent segments.
    func recentRows(in db: Database) throws -> RecentRows {
        guard try db.tableExists(recentTable) else { return .absent }
        let any = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(recentTable))")) ?? false
        return any ? .possible : .absent
    }

    /// Appends `adding`, numbered above every entry of the store, to the recent segments of
    /// `owner`, which has segments: its last recent segment read only when `recent` says there
    /// may be one.
    func appendRecent(owner: Int64, adding: Added, recent: RecentRows, in db: Database) throws {
        var tail = recent == .possible ? try lastSegment(of: owner, table: recentTable, in: db) : nil
        try append(adding, token: owner, to: &tail, table: recentTable, in: db)
    }

    /// Moves the recent segments of `owner`, if any, to the end of its segments.
    func mergeRecent(owner: Int64, tails: inout PostingTails, in db: Database) throws {
        try mergeRecent(
            ids: Self.key(owner: owner, entry: 0)...Self.key(owner: owner, entry: Self.maximumEntryNumber),
            tails: &tails, in: db)
    }

    /// Moves every recent segment to the end of its owner's segments, owner after owner, each
    /// owner's last segment rewritten once, and empties the table.
    func mergeAllRecent(tails: inout PostingTails, in db: Database) throws {
        guard try recentRows(in: db) == .possible else { return }
        try mergeRecent(ids: 0...Int64.max, tails: &tails, in: db)
    }

    /// How many owners have recent segments that do not follow their segments (or have none),
    /// which readers would read out of order: none, by the invariant (``JournalVerifier``).
    func ownersWithRecentOutOfOrder(in db: Database) throws -> Int {
        guard try db.tableExists(recentTable) else { return 0 }
        var misplaced = 0
        let firsts = try Row.fetchCursor(
            db, sql: "SELECT id >> 32, min(id) & \(Self.maximumEntryNumber) FROM \(recentTable) GROUP BY id >> 32")
        while let row = try firsts.next() {
            let last = try lastSegment(of: row[0], in: db)?.last
            if last.map({ $0 >= row[1] as Int64 }) ?? true { misplaced += 1 }
        }
        return misplaced
    }

    /// Moves the recent segments whose ids are in `ids` to the end of their owners' segments,
    /// owner after owner, and deletes them.
    private func mergeRecent(ids: ClosedRange<Int64>, tails: inout PostingTails, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql:
                "SELECT id >> 32, documents, positions, id FROM \(recentTable) WHERE id BETWEEN ? AND ? ORDER BY id"
        )
        let rows = try Row.fetchCursor(statement, arguments: [ids.lowerBound, ids.upperBound])
        var added = (documents: [Int64](), positions: [UInt8]())
        var owner: Int64?
        func flush() throws {
            guard let owner, !added.documents.isEmpty else { return }
            _ = try updateSegments(
                owner: owner, adding: Added(documents: added.documents[...], positions: added.positions[...]),
                removing: [], tails: &tails, isNew: false, in: db)
            added.documents.removeAll(keepingCapacity: true)
            added.positions.removeAll(keepingCapacity: true)
        }
        while try rows.next() != nil {
            let rowOwner = statement.int64(atColumn: 0)
            if rowOwner != owner {
                try flush()
                owner = rowOwner
            }
            let first = Self.first(ofSegment: statement.int64(atColumn: 3))
            statement.withBlob(atColumn: 1) { bytes in
                DeltaList.forEach(in: bytes, first: first) { added.documents.append($0) }
            }
            statement.withBlob(atColumn: 2) { added.positions.append(contentsOf: $0) }
        }
        try flush()
        try db.cachedStatement(sql: "DELETE FROM \(recentTable) WHERE id BETWEEN ? AND ?")
            .execute(arguments: [ids.lowerBound, ids.upperBound])
    }
}
