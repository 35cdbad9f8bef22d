import Foundation
import GRDB

/// The search store's documents by day: for each UTC day, the numbers of the documents dated
/// in it, in the order of their dates (then numbers), kept as runs of consecutive numbers. The
/// documents of a date range are then a few runs to set in a bitmap, not a row each to read,
/// so that a date filter makes a word-prefix search cheaper, never dearer; and the documents
/// newest first are the days newest first, each read backwards, with no date read but at the
/// ends of a range that cuts a day. The dates themselves are kept once, in the documents' rows.
///
/// A journal is mostly written day by day, so its entries are numbered in the order of their
/// dates and a day holds one run or a few; a backdated entry adds a run of one to its day.
///
/// Invariant: every document is in the runs of the day of its date and no other, once, and
/// each day's runs list its documents by date, then by number; every number in the runs is a
/// document.
enum DateBuckets {
    /// The table, created by the search store's migration.
    static let schema = """
        -- day: days since 1970-01-01 UTC; runs: the documents dated that day by date, then by
        -- number, as runs of consecutive numbers: for each, the distance of its first number
        -- from the end of the run before (zigzag, from 0 for the first), then its length - 1,
        -- as varints.
        CREATE TABLE date_bucket (day INTEGER PRIMARY KEY, runs BLOB NOT NULL);
        """

    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The day a date (microseconds since 1970 UTC) falls in.
    static func day(of date: Int64) -> Int64 {
        date >= 0 ? date / microsecondsPerDay : (date + 1) / microsecondsPerDay - 1
    }

    /// A document's number and date.
    typealias Dated = (number: Int64, date: Int64)

    /// The documents a batch adds to days and takes away from them. A document whose date
    /// changes within its day is taken away and added again, so that the day is put in order.
    struct Changes {
        private(set) var adding: [Int64: [Dated]] = [:]
        private(set) var removing: [Int64: [Int64]] = [:]

        var isEmpty: Bool { adding.isEmpty && removing.isEmpty }

        mutating func add(_ number: Int64, date: Int64) {
            adding[DateBuckets.day(of: date), default: []].append((number, date))
        }
        mutating func remove(_ number: Int64, date: Int64) {
            removing[DateBuckets.day(of: date), default: []].append(number)
        }
    }

    /// Rewrites the days `changes` touch, each put in order by date again (the dates of the
    /// documents it kept read from their rows); a day that had no bucket is written with the
    /// others of the batch, many to a statement. A document both taken away from a day and
    /// added to it stays, with the date it was added with.
    static func apply(_ changes: Changes, in db: Database) throws {
        let days = Set(changes.adding.keys).union(changes.removing.keys).sorted()
        guard let firstDay = days.first, let lastDay = days.last else { return }
        let existing = try buckets(of: days, from: firstDay, to: lastDay, in: db)
        let write = try db.cachedStatement(
            sql: "INSERT INTO date_bucket (day, runs) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET runs = excluded.runs"
        )
        let delete = try db.cachedStatement(sql: "DELETE FROM date_bucket WHERE day = ?")
        var new = MultiRowInsert<(day: Int64, runs: Data)>(into: "date_bucket", columns: ["day", "runs"], in: db) {
            bind, first, row in
            bind.bind(first, row.day)
            bind.bind(first + 1, row.runs)
        }
        for day in days {
            var dates: [Int64: Int64] = [:]
            if let data = existing[day] {
                let removed = Set(changes.removing[day] ?? [])
                var kept: [Int64] = []
                forEachRun(in: data) { run in kept += run.filter { !removed.contains($0) } }
                for number in kept {
                    guard let date = try SearchStore.date(of: number, in: db) else {
                        throw JournalError.store("p\(number) is in the documents of day \(day) but not a document")
                    }
                    dates[number] = date
                }
            }
            for document in changes.adding[day] ?? [] { dates[document.number] = document.date }
            if dates.isEmpty {
                if existing[day] != nil { try delete.execute(arguments: [day]) }
                continue
            }
            let runs = encode(dates.map { (number: $0.key, date: $0.value) }.sorted(by: isOlder).map(\.number))
            if existing[day] == nil {
                try new.add((day, runs))
            } else {
                try write.execute(arguments: [day, runs])
            }
        }
        try new.flush()
    }

    /// Whether `a` comes before `b` in a day's order: by date, then by number.
    static func isOlder(_ a: Dated, than b: Dated) -> Bool {
        a.date != b.date ? a.date < b.date : a.number < b.number
    }

    /// The buckets of `days` (ascending, from `first` to `last`) that exist: for many days, read
    /// in one walk over the range they span, not a lookup each (an import of real text, dated
    /// over years, touches thousands).
    private static func buckets(
        of days: [Int64], from first: Int64, to last: Int64, in db: Database
    ) throws -> [Int64: Data] {
        var found: [Int64: Data] = [:]
        if days.count < 64 {
            let read = try db.cachedStatement(sql: "SELECT runs FROM date_bucket WHERE day = ?")
            for day in days { found[day] = try Data.fetchOne(read, arguments: [day]) }
            return found
        }
        let wanted = Set(days)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT day, runs FROM date_bucket WHERE day BETWEEN ? AND ?"),
            arguments: [first, last])
        while let row = try rows.next() {
            let day: Int64 = row[0]
            if wanted.contains(day) { found[day] = row[1] }
        }
        return found
    }

    /// Writes the buckets of every document in the store, in place of any there were: the
    /// migrations that add them and that change their layout.
    static func fill(in db: Database) throws {
        try db.execute(sql: "DELETE FROM date_bucket")
        var changes = Changes()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, date FROM document ORDER BY id")
        while let row = try rows.next() { changes.add(row[0], date: row[1]) }
        try apply(changes, in: db)
    }

    /// `numbers` (distinct, in a day's order) as runs.
    static func encode(_ numbers: [Int64]) -> Data {
        var bytes: [UInt8] = []
        var end: Int64 = 0
        var index = 0
        while index < numbers.count {
            var last = index
            while last + 1 < numbers.count, numbers[last + 1] == numbers[last] + 1 { last += 1 }
            let distance = numbers[index] - end
            Varint.append(UInt64(bitPattern: (distance << 1) ^ (distance >> 63)), to: &bytes)
            Varint.append(UInt64(last - index), to: &bytes)
            end = numbers[last] + 1
            index = last + 1
        }
        return Data(bytes)
    }

    /// Calls `body` with each run of an encoded bucket, in the day's order (each run's numbers
    /// ascending, as they stand in it). A damaged bucket ends at its first run that holds a
    /// number no document can have (verify then finds its documents missing from their day).
    static func forEachRun(in data: Data, _ body: (ClosedRange<Int64>) throws -> Void) rethrows {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let numbers = 1...PostingSegments.maximumEntryNumber
            var position = 0
            var end: Int64 = 0
            while let zigzag = Varint.read(bytes, at: &position), let length = Varint.read(bytes, at: &position) {
                let first = end &+ (Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
                guard numbers.contains(first), length < UInt64(numbers.upperBound - first + 1) else { return }
                let last = first + Int64(length)
                try body(first...last)
                end = last + 1
            }
        }
    }

    /// The documents dated at or after `from` and before `until` (either open), as a set for
    /// numbers up to `maximum`: whole days from their runs, the parts of days at either end
    /// from their documents' dates.
    static func documents(from: Int64?, until: Int64?, maximum: Int64, in db: Database) throws -> DocumentSet {
        var set = DocumentSet(maximum: maximum)
        // Whole days: from the first day starting at or after `from` to the last ending at or before `until`.
        let firstWhole = from.map { day(of: $0 - 1) + 1 }
        let endWhole = until.map { day(of: $0) }
        if let firstWhole, let endWhole, firstWhole >= endWhole {
            try addDated(from: from, until: until, maximum: maximum, to: &set, in: db)
            return set
        }
        let runs = try Data.fetchCursor(
            db, sql: "SELECT runs FROM date_bucket WHERE day >= ? AND day < ?",
            arguments: [firstWhole ?? Int64.min, endWhole ?? Int64.max])
        while let data = try runs.next() { forEachRun(in: data) { set.insert(range: $0) } }
        if let from, let firstWhole {
            try addDated(from: from, until: firstWhole * microsecondsPerDay, maximum: maximum, to: &set, in: db)
        }
        if let until, let endWhole {
            try addDated(from: endWhole * microsecondsPerDay, until: until, maximum: maximum, to: &set, in: db)
        }
        return set
    }

    private static func addDated(
        from: Int64?, until: Int64?, maximum: Int64, to set: inout DocumentSet, in db: Database
    ) throws {
        try forEachDay(from: from, until: until, maximum: maximum, in: db) { numbers in
            for number in numbers { set.insert(number) }
            return true
        }
    }

    /// Calls `body` with the numbers of the documents dated at or after `from` and before
    /// `until` (either open) and numbered `maximum` or below, newest first, a day at a time,
    /// the newest day first, until it returns false. Only a day that the range cuts has its
    /// documents' dates read.
    static func forEachDay(
        from: Int64?, until: Int64?, maximum: Int64, in db: Database, _ body: ([Int64]) throws -> Bool
    ) throws {
        guard until != Int64.min else { return }
        let days = try Row.fetchCursor(
            db, sql: "SELECT day, runs FROM date_bucket WHERE day BETWEEN ? AND ? ORDER BY day DESC",
            arguments: [from.map(day(of:)) ?? Int64.min, until.map { day(of: $0 - 1) } ?? Int64.max])
        var numbers: [Int64] = []
        while let row = try days.next() {
            let day: Int64 = row[0]
            // A bound inside the day, not at its start, cuts it.
            let cut =
                (from.map { Self.day(of: $0) == day && $0 > day * microsecondsPerDay } ?? false)
                || (until.map { Self.day(of: $0) == day && $0 > day * microsecondsPerDay } ?? false)
            numbers.removeAll(keepingCapacity: true)
            try forEachRun(in: row[1]) { run in
                guard run.lowerBound <= maximum else { return }
                for number in run.lowerBound...min(run.upperBound, maximum) {
                    if cut {
                        guard let date = try SearchStore.date(of: number, in: db),
                            date >= from ?? Int64.min, date < until ?? Int64.max
                        else { continue }
                    }
                    numbers.append(number)
                }
            }
            numbers.reverse()
            if !numbers.isEmpty, try !body(numbers) { return }
        }
    }

    /// Every bucket as its runs, for verification.
    static func all(in db: Database) throws -> [Int64: Data] {
        try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT day, runs FROM date_bucket").map { ($0[0], $0[1]) })
    }
}
