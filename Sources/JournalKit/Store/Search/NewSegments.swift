import Foundation
import GRDB

/// The segments of tokens (or prefix keys) that a batch added, written ``rowsPerInsert`` to an
/// `INSERT`: such a token has no segment to read or replace, and no other write of the batch
/// reads its rows before ``flush()``. One statement per segment was most of the cost of the
/// postings of a batch of real text, where most tokens are new.
///
/// Invariant: every row added is written by the time ``flush()`` returns.
struct NewSegments {
    let segments: PostingSegments
    let db: Database
    private var rows: [PostingTails.Tail] = []

    /// Rows written by one statement: 4 parameters each, far below SQLite's limit.
    static let rowsPerInsert = 100

    init(_ segments: PostingSegments, in db: Database) {
        self.segments = segments
        self.db = db
    }

    /// Adds a segment, writing the rows held once there are ``rowsPerInsert``.
    mutating func add(_ segment: PostingTails.Tail) throws {
        rows.append(segment)
        if rows.count == Self.rowsPerInsert { try flush() }
    }

    /// Writes every row held.
    mutating func flush() throws {
        guard !rows.isEmpty else { return }
        let columns = segments.hasPositions ? "(id, count, documents, positions)" : "(id, count, documents)"
        let row = segments.hasPositions ? "(?, ?, ?, ?)" : "(?, ?, ?)"
        let sql =
            "INSERT INTO \(segments.table) \(columns) VALUES "
            + Array(repeating: row, count: rows.count).joined(separator: ", ")
        let statement =
            try rows.count == Self.rowsPerInsert ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        let width: Int32 = segments.hasPositions ? 4 : 3
        try statement.bound { bind in
            for (index, segment) in rows.enumerated() {
                let first = Int32(index) * width + 1
                bind.bind(first, segment.id)
                bind.bind(first + 1, segment.count)
                bind.bind(first + 2, segment.bytes)
                if segments.hasPositions { bind.bind(first + 3, segment.positions) }
            }
        }.execute()
        rows.removeAll(keepingCapacity: true)
    }
}
