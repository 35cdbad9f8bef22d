import Foundation
import GRDB

/// The search store's documents newest first (by date, then by entry number), held in memory,
/// so that putting a search's matches in order reads no dates from disk: a page of a rare
/// word's matches is then a sort of their places, not a scattered read of each match's row.
///
/// Invariant: `newestFirst` holds every document of the store once, and `place[n]` is where
/// document `n` stands in it (`absent` for numbers that are not documents), as of `position`.
struct DateOrder: Sendable {
    /// Entry numbers, newest first.
    let newestFirst: [UInt32]
    /// For each entry number, its index in `newestFirst`.
    let place: [UInt32]
    /// The search store's catch-up position the order was read at: the store changes only
    /// with it.
    let position: SearchStore.Position

    static let absent = UInt32.max

    /// Reads the order from the days of `db`, each in its order already: no document's row.
    init(in db: Database) throws {
        position = try SearchStore.position(in: db)
        let maximum = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
        guard maximum <= PostingSegments.maximumEntryNumber else {
            throw JournalError(.store, "entry number \(maximum) is beyond what the search store can hold")
        }
        var numbers: [UInt32] = []
        numbers.reserveCapacity(Int(maximum))
        try DateBuckets.forEachDay(from: nil, until: nil, maximum: maximum, in: db) { day in
            numbers += day.lazy.map { UInt32($0) }
            return true
        }
        var place = [UInt32](repeating: Self.absent, count: Int(maximum) + 1)
        for (index, number) in numbers.enumerated() { place[Int(number)] = UInt32(index) }
        newestFirst = numbers
        self.place = place
    }

    /// The first `wanted` documents, newest first, that `contains` accepts among those dated
    /// at or after `from` and before `until`: a walk down that part of the order, as long as it
    /// takes.
    func walk(
        wanted: Int, dated: (from: Int64?, until: Int64?) = (nil, nil), in db: Database,
        where contains: (Int64) throws -> Bool
    ) throws -> [Int64] {
        var found: [Int64] = []
        found.reserveCapacity(wanted)
        for number in newestFirst[try places(dated: dated, in: db)] {
            guard found.count < wanted else { break }
            if try contains(Int64(number)) { found.append(Int64(number)) }
        }
        return found
    }

    /// Where the documents dated at or after `from` and before `until` stand in the order: from
    /// the first dated before `until` to the first dated before `from`, each found by a binary
    /// search of the order that reads a date a step.
    func places(dated: (from: Int64?, until: Int64?), in db: Database) throws -> Range<Int> {
        let start = try dated.until.map { try firstPlace(datedBefore: $0, in: db) } ?? 0
        let end = try dated.from.map { try firstPlace(datedBefore: $0, in: db) } ?? newestFirst.count
        return start..<max(start, end)
    }

    /// The first place in the order whose document is dated before `date` (the count when
    /// none is).
    private func firstPlace(datedBefore date: Int64, in db: Database) throws -> Int {
        var low = 0
        var high = newestFirst.count
        while low < high {
            let middle = (low + high) / 2
            guard let dated = try SearchStore.date(of: Int64(newestFirst[middle]), in: db) else {
                throw JournalError(.store, "p\(newestFirst[middle]) is in the date order but not a document")
            }
            if dated < date { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private func place(of number: Int64) -> Int? {
        guard number >= 0, number < place.count, place[Int(number)] != Self.absent else { return nil }
        return Int(place[Int(number)])
    }

    /// The newest `wanted` of `numbers` (numbers that are not documents left out).
    func newest(_ wanted: Int, of numbers: [Int64]) -> [Int64] {
        numbers.compactMap(place(of:)).sorted().prefix(wanted).map { Int64(newestFirst[$0]) }
    }
}
