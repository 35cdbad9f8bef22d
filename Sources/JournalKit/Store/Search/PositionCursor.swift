import Foundation
import GRDB

/// A reader of one token's postings (or a prefix key's that keeps positions) in entry order: moved forward to an entry, it gives the
/// token's positions there (``PositionLists``), stepping over the lists of the entries between
/// by their lengths, without decoding them. A segment that ends before the entry asked for (the
/// one after it starts no later) is passed over as it is stored, its numbers never decoded.
///
/// Invariant: `documents` (its first number, `entered`, then those `enteredDocuments` holds) and
/// `positions` are those of the segment entered last, and `offset` is where the list of
/// `documents[index]` starts in `positions`; `ahead` is the first number of the segment after it (from its id), read as
/// stored into `aheadDocuments` and `aheadPositions` (nil once the segments are read out).
struct PositionCursor {
    private let statement: Statement
    private let rows: RowCursor
    private var documents: [Int64] = []
    private var positions: [UInt8] = []
    private var index = 0
    private var offset = 0
    private var ahead: Int64?
    private var entered: Int64 = 0
    private var enteredDocuments: [UInt8] = []
    private var aheadDocuments: [UInt8] = []
    private var aheadPositions: [UInt8] = []

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
        try stepAhead()
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
            guard try enterSegment(holding: number) else { return false }
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

    /// Enters the first segment ahead that can hold `number`: those before it are passed over
    /// undecoded. False when no segment is left.
    private mutating func enterSegment(holding number: Int64) throws -> Bool {
        guard ahead != nil else { return false }
        repeat {
            entered = ahead ?? 0
            swap(&positions, &aheadPositions)
            swap(&enteredDocuments, &aheadDocuments)
            try stepAhead()
        } while ahead.map { $0 <= number } ?? false
        documents.removeAll(keepingCapacity: true)
        enteredDocuments.withUnsafeBytes { DeltaList.forEach(in: $0, first: entered) { documents.append($0) } }
        (index, offset) = (0, 0)
        return true
    }

    /// Steps to the next segment, keeping its first number and its columns as stored.
    private mutating func stepAhead() throws {
        guard try rows.next() != nil else {
            ahead = nil
            return
        }
        // The row's blobs read where SQLite holds them (``DirectColumns``), into the arrays the
        // segment before left.
        ahead = PostingSegments.first(ofSegment: statement.int64(atColumn: 0))
        aheadDocuments.removeAll(keepingCapacity: true)
        statement.withBlob(atColumn: 1) { aheadDocuments.append(contentsOf: $0) }
        aheadPositions.removeAll(keepingCapacity: true)
        statement.withBlob(atColumn: 2) { aheadPositions.append(contentsOf: $0) }
    }
}
