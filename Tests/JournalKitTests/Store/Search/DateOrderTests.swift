import Foundation
import GRDB
import Testing

@testable import JournalKit

@Suite struct DateOrderTests {
    /// Entries whose numbers are not in date order: backdated, sharing a date, moved, deleted.
    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        let day: Int64 = 86_400_000_000
        for (index, offset) in [5, 1, 3, 3, 9, 0, 3, 7].enumerated() {
            try store.journal.add(
                NewEntry(date: JournalDate(microseconds: 19_000 * day + Int64(offset) * day), text: "entry \(index)"))
        }
        let id = { (number: Int64) in EntryID(storeID: store.journal.storeID, number: number) }
        try store.journal.edit(id(2), date: JournalDate(microseconds: 19_020 * day))
        try store.journal.delete(id(6))
        return store
    }

    /// The order as the semantics define it, computed from each document's date.
    private func expected(_ store: TemporaryJournal) throws -> [UInt32] {
        try store.journal.search.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, date FROM document").map {
                (number: $0[0] as Int64, date: $0[1] as Int64)
            }
        }
        .sorted { ($0.date, $0.number) > ($1.date, $1.number) }.map { UInt32($0.number) }
    }

    private func order(_ store: TemporaryJournal) throws -> DateOrder? {
        try store.journal.search.pool.read { db in
            try store.journal.dateOrders.order(in: db, at: SearchStore.position(in: db))
        }
    }

    @Test func holdsEveryDocumentNewestFirstWithItsPlace() throws {
        let store = try journal()
        #expect(try order(store) == nil, "kept only once asked for")
        try store.journal.prepareForTyping()
        let order = try #require(try order(store))
        #expect(order.newestFirst == (try expected(store)))
        for number in 0..<order.place.count {
            let place = order.place[number]
            #expect(
                place == DateOrder.absent
                    ? !order.newestFirst.contains(UInt32(number)) : order.newestFirst[Int(place)] == UInt32(number))
        }
        // Entries 8, 1 and 4 are dated 7, 5 and 3 days in; 6 is deleted, 99 never was.
        #expect(order.newest(3, of: [4, 1, 6, 8, 99]) == [8, 1, 4])
        let odd = try expected(store).filter { $0 % 2 == 1 }.prefix(2).map(Int64.init)
        try store.journal.search.pool.read { db in
            #expect(try order.walk(wanted: 2, in: db, where: { $0 % 2 == 1 }) == odd)
            // Every span of dates, open or not, at and between the entries' days.
            let dates = try Row.fetchAll(db, sql: "SELECT id, date FROM document").reduce(into: [Int64: Int64]()) {
                $0[$1[0]] = $1[1]
            }
            let bounds: [Int64?] = [nil] + Set(dates.values).flatMap { [$0, $0 + 1] }.sorted()
            for from in bounds {
                for until in bounds {
                    let expected = order.newestFirst.filter { number in
                        let date = dates[Int64(number)]!
                        return from.map { date >= $0 } != false && until.map { date < $0 } != false
                    }
                    #expect(
                        Array(order.newestFirst[try order.places(dated: (from, until), in: db)]) == expected,
                        "\(String(describing: from))–\(String(describing: until))")
                }
            }
        }
    }

    @Test func followsWritesMadeAfterItWasRead() throws {
        let store = try journal()
        try store.journal.prepareForTyping()
        let before = try #require(try order(store))
        let added = try store.journal.add(NewEntry(date: JournalDate(microseconds: 0), text: "oldest of all"))
        try store.journal.edit(EntryID(storeID: store.journal.storeID, number: 1), date: JournalDate(microseconds: 1))
        let after = try #require(try order(store))
        #expect(after.newestFirst != before.newestFirst)
        #expect(after.newestFirst == (try expected(store)))
        #expect(after.newestFirst.suffix(2) == [1, UInt32(added.id.number)])
    }
}
