import Algorithms
import Foundation
import GRDB

/// Tells whether entry numbers are among one owner's postings, and with `positions`, a token's
/// positions there, reading only the segments (and recent segments) that can hold them, each at
/// most once: what a walk from the newest entry needs to find the first page of a long list
/// without reading the list, in whatever order it asks.
///
/// Invariant: each segment read is kept with the first number of the segment after it (and
/// with `positions`, its position lists and where each entry's begins), so a number between
/// the two is answered from memory, in or out.
struct PostingMembership {
    private let segments: PostingSegments
    private let owner: Int64
    private let db: Database
    private let keepsPositions: Bool
    /// A segment read: its numbers, where the next begins, and its position lists with where
    /// each number's begins (empty without `positions`).
    private struct Segment {
        let numbers: [Int64]
        let next: Int64
        let positions: [UInt8]
        let starts: [Int]
    }
    /// Segments read so far, by their first number.
    private var read: [Int64: Segment] = [:]
    /// The first number of each segment read, ascending.
    private var firsts: [Int64] = []

    /// Membership in `owner`'s postings; with `positions` (an owner that keeps them), its
    /// positions too.
    init(_ segments: PostingSegments, owner: Int64, positions: Bool = false, in db: Database) {
        self.segments = segments
        self.owner = owner
        self.db = db
        keepsPositions = positions
    }

    mutating func contains(_ number: Int64) throws -> Bool {
        try index(of: number) != nil
    }

    /// The owner's positions in entry `number`, appended to `list`; false when the owner is not
    /// in that entry.
    mutating func positions(at number: Int64, appendingTo list: inout [UInt32]) throws -> Bool {
        precondition(keepsPositions, "positions are kept only when asked for")
        guard let (segment, index) = try index(of: number) else { return false }
        var start = segment.starts[index]
        let whole = segment.positions.withUnsafeBufferPointer { bytes in
            PositionLists.nextList(in: bytes, at: &start).map { PositionLists.decode($0, appendingTo: &list) } ?? false
        }
        guard whole else { throw PositionLists.damaged }
        return true
    }

    /// The segment holding `number` and its place there; nil when the owner doesn't have it.
    private mutating func index(of number: Int64) throws -> (Segment, Int)? {
        guard number >= 0, number <= PostingSegments.maximumEntryNumber else { return nil }
        let known = firsts.partitioningIndex { $0 > number } - 1
        let segment: Segment
        if known >= 0, let kept = read[firsts[known]], number < kept.next {
            segment = kept
        } else {
            guard let found = try readSegment(holding: number) else { return nil }
            segment = found
        }
        let index = segment.numbers.partitioningIndex { $0 >= number }
        return index < segment.numbers.count && segment.numbers[index] == number ? (segment, index) : nil
    }

    /// The numbers of the segment that starts at `first` (which must be a segment's first).
    mutating func numbers(ofSegmentStartingAt first: Int64) throws -> [Int64] {
        try read[first]?.numbers ?? readSegment(holding: first)?.numbers ?? []
    }

    /// Reads the segment that starts at or before `number` (nil when none does), among the
    /// segments and the recent ones, and keeps it.
    private mutating func readSegment(holding number: Int64) throws -> Segment? {
        let low = PostingSegments.key(owner: owner, entry: 0)
        let high = PostingSegments.key(owner: owner, entry: PostingSegments.maximumEntryNumber)
        let tables = try segments.tables(in: db)
        var found: (id: Int64, numbers: [Int64], positions: Data)?
        var nextID: Int64?
        let positions = keepsPositions ? "positions" : "x''"
        for table in tables {
            if let row = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT id, documents, \(positions) FROM \(table) WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1"
                ),
                arguments: [low, PostingSegments.key(owner: owner, entry: number)]),
                (row[0] as Int64) > found?.id ?? .min
            {
                found = (row[0], DeltaList.decode(row[1] as Data), row[2] as Data)
            }
        }
        guard let found else { return nil }
        for table in tables {
            if let next = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT min(id) FROM \(table) WHERE id > ? AND id <= ?"),
                arguments: [found.id, high])
            {
                nextID = min(nextID ?? next, next)
            }
        }
        let first = found.id & PostingSegments.maximumEntryNumber
        let lists = [UInt8](found.positions)
        var starts: [Int] = []
        if keepsPositions {
            starts.reserveCapacity(found.numbers.count)
            let whole = lists.withUnsafeBufferPointer { bytes in
                var offset = 0
                for _ in found.numbers {
                    starts.append(offset)
                    guard PositionLists.nextList(in: bytes, at: &offset) != nil else { return false }
                }
                return true
            }
            guard whole else { throw PositionLists.damaged }
        }
        let segment = Segment(
            numbers: found.numbers,
            next: nextID.map { $0 & PostingSegments.maximumEntryNumber } ?? PostingSegments.maximumEntryNumber + 1,
            positions: lists, starts: starts)
        read[first] = segment
        firsts.insert(first, at: firsts.partitioningIndex { $0 >= first })
        return segment
    }
}
