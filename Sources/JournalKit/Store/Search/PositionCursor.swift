import Foundation
import GRDB

/// A reader of one token's postings in entry order: moved forward to an entry, it gives the
/// token's positions there (``PositionLists``), stepping over the lists of the entries between
/// by their lengths, without decoding them.
///
/// Invariant: `documents` and `positions` are those of the segment read last, and `offset` is
/// where the list of `documents[index]` starts in `positions`.
struct PositionCursor {
    private let rows: RowCursor
    private var documents: [Int64] = []
    private var positions: [UInt8] = []
    private var index = 0
    private var offset = 0

    /// The postings of `token` in the entries numbered in `range`, read as reader number
    /// `reader`: readers alive at the same time need different numbers.
    init(token: Int64, within range: ClosedRange<Int64>, reader: Int, in db: Database) throws {
        let statement = try PostingSegments.tokens.segments(
            holding: range, owner: token, columns: "documents, positions", reader: reader, in: db)
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
            guard let row = try rows.next() else { return false }
            documents.removeAll(keepingCapacity: true)
            DeltaList.forEach(in: row[1] as Data) { documents.append($0) }
            positions = [UInt8](row[2] as Data)
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
