import Foundation
import GRDB
import Testing

@testable import JournalKit

@Suite struct DateBucketsTests {
    static let day = DateBuckets.microsecondsPerDay
    static let hour: Int64 = 3_600_000_000

    /// A journal written day by day (three entries a day), with a backdated entry, an entry
    /// moved to another day, one moved within its day, one deleted, and dates before 1970.
    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        let start = 19_000 * Self.day  // 2022-01-08
        for index in 0..<60 {
            try store.journal.add(
                NewEntry(
                    date: JournalDate(
                        microseconds: start + Int64(index / 3) * Self.day + Int64(index % 3) * 5 * Self.hour),
                    text: "entry \(index)"))
        }
        let id = { (number: Int64) in EntryID(storeID: store.journal.storeID, number: number) }
        try store.journal.add(
            NewEntry(date: JournalDate(microseconds: start + 3 * Self.day + Self.hour), text: "backdated"))
        try store.journal.add(NewEntry(date: JournalDate(microseconds: -Self.day - Self.hour), text: "before 1970"))
        try store.journal.add(NewEntry(date: JournalDate(microseconds: -1), text: "just before 1970"))
        try store.journal.edit(id(10), date: JournalDate(microseconds: start + 15 * Self.day))
        try store.journal.edit(id(11), date: JournalDate(microseconds: start + 3 * Self.day + 23 * Self.hour))
        try store.journal.delete(id(20))
        return store
    }

    private func dates(in store: TemporaryJournal) throws -> [Int64: Int64] {
        try store.journal.search.pool.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, date FROM document").map {
                    ($0[0] as Int64, $0[1] as Int64)
                })
        }
    }

    @Test func aJournalWrittenDayByDayHoldsARunADay() throws {
        let store = try journal()
        let buckets = try store.journal.search.pool.read(DateBuckets.all(in:))
        var runs: [Int64: [ClosedRange<Int64>]] = [:]
        for (day, data) in buckets { DateBuckets.forEachRun(in: data) { runs[day, default: []].append($0) } }
        let start: Int64 = 19_000
        // Day d holds entries 3d+1...3d+3.
        #expect(runs[start] == [1...3])
        // Day 3: 10 moved away, 11 moved within the day (to 23 h), 61 backdated into it (1 h):
        // by date, 61, 12 (10 h), 11.
        #expect(runs[start + 3] == [61...61, 12...12, 11...11])
        #expect(runs[start + 6] == [19...19, 21...21], "20 was deleted")
        #expect(runs[start + 15] == [10...10, 46...48], "10 moved here")
        #expect(runs[-2] == [62...62] && runs[-1] == [63...63])
    }

    @Test(
        arguments: [
            (0, 1), (0, 86_400_000_000 * 19_003), (86_400_000_000 * 19_003, 86_400_000_000 * 19_004),
            (86_400_000_000 * 19_003 + 3_600_000_000, 86_400_000_000 * 19_003 + 12 * 3_600_000_000),
            (86_400_000_000 * 19_002 + 7 * 3_600_000_000, 86_400_000_000 * 19_016 + 3_600_000_000),
            (-86_400_000_000 * 2, 0), (-3_600_000_000, 86_400_000_000 * 19_001 + 1),
        ] as [(Int64, Int64)])
    func aRangeHoldsExactlyTheDocumentsDatedInIt(from: Int64, until: Int64) throws {
        let store = try journal()
        let dates = try dates(in: store)
        let maximum = dates.keys.max() ?? 0
        for (low, high) in [(from, until), (nil, until), (from, nil)] as [(Int64?, Int64?)] {
            let set = try store.journal.search.pool.read { db in
                try DateBuckets.documents(from: low, until: high, maximum: maximum, in: db)
            }
            let expected = dates.filter { ($0.value >= (low ?? .min)) && ($0.value < (high ?? .max)) }.keys.sorted()
            #expect(set.members == expected, "from \(String(describing: low)) until \(String(describing: high))")
            // Newest first, by date then by number, as the days give them a day at a time.
            let newestFirst = try store.journal.search.pool.read { db in
                var numbers: [Int64] = []
                try DateBuckets.forEachDay(from: low, until: high, maximum: maximum, in: db) { day in
                    numbers += day
                    return true
                }
                return numbers
            }
            let byDate = expected.sorted { dates[$0]! != dates[$1]! ? dates[$0]! > dates[$1]! : $0 > $1 }
            #expect(newestFirst == byDate, "from \(String(describing: low)) until \(String(describing: high))")
        }
    }

    @Test func fillingFromTheDocumentsGivesTheBucketsTheWritesKept() throws {
        let store = try journal()
        let kept = try store.journal.search.pool.read(DateBuckets.all(in:))
        try store.journal.search.pool.write { db in
            try db.execute(sql: "DELETE FROM date_bucket")
            try DateBuckets.fill(in: db)
        }
        #expect(try store.journal.search.pool.read(DateBuckets.all(in:)) == kept)
        #expect(try store.journal.verify().isConsistent)
    }

    /// A batch over many days, some with buckets and some without, read in one walk and the
    /// new ones written together: the buckets `fill` gives the same documents.
    @Test func aBatchOverManyDaysKeepsTheBucketsFillWouldGive() throws {
        let store = try TemporaryJournal()
        try store.importTexts((0..<100).map { "first \($0)" }, oneADay: true)
        try store.importTexts((0..<150).map { "second \($0)" }, oneADay: true)
        let kept = try store.journal.search.pool.read(DateBuckets.all(in:))
        #expect(kept.count == 150)
        let filled = try store.journal.search.pool.write { db in
            try db.execute(sql: "DELETE FROM date_bucket")
            try DateBuckets.fill(in: db)
            return try DateBuckets.all(in: db)
        }
        #expect(filled == kept)
        var runs: [ClosedRange<Int64>] = []
        DateBuckets.forEachRun(in: kept[99]!) { runs.append($0) }
        #expect(runs == [100...100, 200...200])
        try store.expectConsistent()
    }
}
