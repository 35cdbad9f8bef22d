import Algorithms
import Foundation
import GRDB

/// Tells whether entry numbers are among one owner's postings, reading only the segments (and
/// recent segments) that can hold them, each at most once: what a walk from the newest entry
/// needs to find the first page of a long list without reading the list.
///
/// Invariant: each segment read is kept with the first number of the segment after it, so a
/// number between the two is answered from memory, in or out.
struct PostingMembership {
    private let segments: PostingSegments
    private let owner: Int64
    private let db: Database
    /// Segments read so far, by their first number: their numbers and where the next begins.
    private var read: [Int64: (numbers: [Int64], next: Int64)] = [:]
    /// The first number of each segment read, ascending.
    private var firsts: [Int64] = []

    init(_ segments: PostingSegments, owner: Int64, in db: Database) {
        self.segments = segments
        self.owner = owner
        self.db = db
    }

    mutating func contains(_ number: Int64) throws -> Bool {
        guard number >= 0, number <= PostingSegments.maximumEntryNumber else { return false }
        let index = firsts.partitioningIndex { $0 > number } - 1
        if index >= 0, let segment = read[firsts[index]], number < segment.next {
            return segment.numbers.binarySearch(number)
        }
        return try readSegment(holding: number)?.binarySearch(number) ?? false
    }

    /// The numbers of the segment that starts at `first` (which must be a segment's first).
    mutating func numbers(ofSegmentStartingAt first: Int64) throws -> [Int64] {
        try read[first]?.numbers ?? readSegment(holding: first) ?? []
    }

    /// Reads the segment that starts at or before `number` (nil when none does), among the
    /// segments and the recent ones, and keeps it.
    private mutating func readSegment(holding number: Int64) throws -> [Int64]? {
        let low = PostingSegments.key(owner: owner, entry: 0)
        let high = PostingSegments.key(owner: owner, entry: PostingSegments.maximumEntryNumber)
        let tables = try segments.tables(in: db)
        var found: (id: Int64, numbers: [Int64])?
        var nextID: Int64?
        for table in tables {
            if let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id, documents FROM \(table) WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1"),
                arguments: [low, PostingSegments.key(owner: owner, entry: number)]),
                (row[0] as Int64) > found?.id ?? .min
            {
                found = (row[0], DeltaList.decode(row[1], first: PostingSegments.first(ofSegment: row[0])))
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
        read[first] = (
            found.numbers,
            nextID.map { $0 & PostingSegments.maximumEntryNumber } ?? PostingSegments.maximumEntryNumber + 1
        )
        firsts.insert(first, at: firsts.partitioningIndex { $0 >= first })
        return found.numbers
    }
}

extension Array where Element == Int64 {
    /// Whether the sorted array holds `value`.
    fileprivate func binarySearch(_ value: Int64) -> Bool {
        let index = partitioningIndex { $0 >= value }
        return index < count && self[index] == value
    }
}
