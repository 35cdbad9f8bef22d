import Foundation
import GRDB

/// A reader of one token's postings (or a prefix key's that keeps positions) in entry order: moved forward to an entry, it gives the
/// token's positions there (``PositionLists``), stepping over the lists of the entries between
/// by their lengths, without decoding them.
///
/// Invariant: `documents` and `positions` are those of the segment read last, and `offset` is
/// where the list of `documents[index]` starts in `positions`.
struct PositionCursor {
    private let statement: Statement
    private let rows: RowCursor
    private var documents: [Int64] = []
    private var positions: [UInt8] = []
    private var index = 0
    private var offset = 0

    /// The postings of `token` in the entries numbered in `range`, read as reader number
    /// `reader`: readers alive at the same time need different numbers.
    init(token: Int64, within range: ClosedRange<Int64>, reader: Int, in db: Database) throws {
        try self.init(.tokens, owner: token, within: range, reader: reader, in: db)
    }

    /// The same for the postings of `owner` in `segments`, which must keep positions.
    init(
        _ segments: PostingSegments, owner: Int64, within range: ClosedRange<Int64>, reader: Int, in db: Database
    ) throws {
        statement = try segments.segments(
            holding: range, owner: owner, columns: "documents, positions", reader: reader, in: db)
        rows = try Row.fetchCursor(statement)
    }

    /// The token's positions in entry `number`, appended to `list`; false when the token is not
    /// in that entry. Entries must be asked for in ascending order.
    mutating func positions(at number: Int64, appendingTo list: inout [UInt32]) throws -> Bool {
        while true {
            while index < documents.count, documents[index] < number {
                positions.withUnsafeBufferPointer { _ = PositionLists.nextList(in: $0, at: &offset) }
                index += 1
            }
            if index < documents.count { break }
            guard try rows.next() != nil else { return false }
            // The row's blobs read where SQLite holds them (``DirectColumns``), into the arrays
            // the last segment left.
            documents.removeAll(keepingCapacity: true)
            statement.withBlob(atColumn: 1) { DeltaList.forEach(in: $0) { documents.append($0) } }
            positions.removeAll(keepingCapacity: true)
            statement.withBlob(atColumn: 2) { positions.append(contentsOf: $0) }
            (index, offset) = (0, 0)
        }
        guard documents[index] == number else { return false }
        var start = offset
        let whole = positions.withUnsafeBufferPointer { bytes in
            PositionLists.nextList(in: bytes, at: &start).map { PositionLists.decode($0, appendingTo: &list) }
                ?? false
        }
        guard whole else { throw PositionLists.damaged }
        return true
    }
}
