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

    /// Reads the order from the date index of `db` (one scan of it, no table row).
    init(in db: Database) throws {
        position = try SearchStore.position(in: db)
        let maximum = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
        guard maximum <= PostingSegments.maximumEntryNumber else {
            throw JournalError(.store, "entry number \(maximum) is beyond what the search store can hold")
        }
        var numbers: [UInt32] = []
        numbers.reserveCapacity(Int(maximum))
        let rows = try Int64.fetchCursor(db, sql: "SELECT id FROM document ORDER BY date DESC, id DESC")
        while let number = try rows.next() { numbers.append(UInt32(number)) }
        var place = [UInt32](repeating: Self.absent, count: Int(maximum) + 1)
        for (index, number) in numbers.enumerated() { place[Int(number)] = UInt32(index) }
        newestFirst = numbers
        self.place = place
    }

    /// The first `wanted` documents, newest first, that `contains` accepts: a walk down the
    /// order, as long as it takes.
    func walk(wanted: Int, where contains: (Int64) throws -> Bool) rethrows -> [Int64] {
        var found: [Int64] = []
        found.reserveCapacity(wanted)
        for number in newestFirst {
            guard found.count < wanted else { break }
            if try contains(Int64(number)) { found.append(Int64(number)) }
        }
        return found
    }

    /// The newest `wanted` of `numbers` (numbers that are not documents left out).
    func newest(_ wanted: Int, of numbers: [Int64]) -> [Int64] {
        let places = numbers.compactMap { number -> UInt32? in
            number >= 0 && number < place.count && place[Int(number)] != Self.absent ? place[Int(number)] : nil
        }
        return places.sorted().prefix(wanted).map { Int64(newestFirst[Int($0)]) }
    }
}
