import Foundation
import GRDB

/// The search store's documents by day: for each UTC day, the numbers of the documents dated
/// in it, kept as runs of consecutive numbers. The documents of a date range are then a few
/// runs to set in a bitmap, not a row each to read, so that a date filter makes a word-prefix
/// search cheaper, never dearer. They are also the store's only order by date: the documents
/// newest first are the days newest first, each day's documents read through its runs and put
/// in order by their dates (the dates are kept once, in the documents' rows, with no index).
///
/// A journal is mostly written day by day, so its entries are numbered in the order of their
/// dates and a day holds one run or a few; a backdated entry adds a run of one to its day.
///
/// Invariant: every document is in the runs of the day of its date and no other, and every
/// number in the runs is a document.
enum DateBuckets {
    /// The table, created by the search store's migration.
    static let schema = """
        -- day: days since 1970-01-01 UTC; runs: [first, last + 1] of each run of consecutive
        -- document numbers dated that day, ascending, as a DeltaList.
        CREATE TABLE date_bucket (day INTEGER PRIMARY KEY, runs BLOB NOT NULL);
        """

    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The day a date (microseconds since 1970 UTC) falls in.
    static func day(of date: Int64) -> Int64 {
        date >= 0 ? date / microsecondsPerDay : (date + 1) / microsecondsPerDay - 1
    }

    /// The documents a batch adds to days and takes away from them.
    struct Changes {
        private(set) var adding: [Int64: [Int64]] = [:]
        private(set) var removing: [Int64: [Int64]] = [:]

        var isEmpty: Bool { adding.isEmpty && removing.isEmpty }

        mutating func add(_ number: Int64, date: Int64) {
            adding[DateBuckets.day(of: date), default: []].append(number)
        }
        mutating func remove(_ number: Int64, date: Int64) {
            removing[DateBuckets.day(of: date), default: []].append(number)
        }
    }

    /// Rewrites the days `changes` touch; a day that had no bucket is written with the others
    /// of the batch, many to a statement.
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
            guard let data = existing[day] else {
                let members = Set(changes.adding[day] ?? []).subtracting(changes.removing[day] ?? [])
                if !members.isEmpty { try new.add((day, encode(members.sorted()))) }
                continue
            }
            var members = Set<Int64>()
            forEachRun(in: data) { members.formUnion($0) }
            members.subtract(changes.removing[day] ?? [])
            members.formUnion(changes.adding[day] ?? [])
            if members.isEmpty {
                try delete.execute(arguments: [day])
            } else {
                try write.execute(arguments: [day, encode(members.sorted())])
            }
        }
        try new.flush()
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

    /// Writes the buckets of every document in the store: the migration that adds them.
    static func fill(in db: Database) throws {
        var changes = Changes()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, date FROM document ORDER BY id")
        while let row = try rows.next() { changes.add(row[0], date: row[1]) }
        try apply(changes, in: db)
    }

    /// `numbers` (ascending, distinct) as runs.
    static func encode(_ numbers: [Int64]) -> Data {
        var bounds: [Int64] = []
        for number in numbers {
            if let last = bounds.last, last == number {
                bounds[bounds.count - 1] = number + 1
            } else {
                bounds += [number, number + 1]
            }
        }
        return DeltaList.encode(bounds)
    }

    /// Calls `body` with each run of an encoded bucket, in order.
    static func forEachRun(in data: Data, _ body: (ClosedRange<Int64>) -> Void) {
        var start: Int64?
        DeltaList.forEach(in: data) { bound in
            if let first = start {
                body(first...(bound - 1))
                start = nil
            } else {
                start = bound
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
        try forEachDay(from: from, until: until, maximum: maximum, in: db) { documents in
            for document in documents { set.insert(document.number) }
            return true
        }
    }

    /// A document's number and date, as a day's walk reads them.
    typealias Dated = (number: Int64, date: Int64)

    /// Whether `a` comes before `b` newest first: by date, then by number.
    static func isNewer(_ a: Dated, than b: Dated) -> Bool {
        a.date != b.date ? a.date > b.date : a.number > b.number
    }

    /// Calls `body` with the documents dated at or after `from` and before `until` (either
    /// open) and numbered `maximum` or below, a day at a time, the newest day first, until it
    /// returns false. Each day's documents come in number order, read through its runs (a
    /// range of rows each).
    static func forEachDay(
        from: Int64?, until: Int64?, maximum: Int64, in db: Database, _ body: ([Dated]) throws -> Bool
    ) throws {
        guard until != Int64.min else { return }
        let days = try Data.fetchCursor(
            db, sql: "SELECT runs FROM date_bucket WHERE day BETWEEN ? AND ? ORDER BY day DESC",
            arguments: [from.map(day(of:)) ?? Int64.min, until.map { day(of: $0 - 1) } ?? Int64.max])
        let read = try db.cachedStatement(sql: "SELECT id, date FROM document WHERE id BETWEEN ? AND ?")
        var documents: [Dated] = []
        while let runs = try days.next() {
            documents.removeAll(keepingCapacity: true)
            var ranges: [ClosedRange<Int64>] = []
            forEachRun(in: runs) { if $0.lowerBound <= maximum { ranges.append($0) } }
            for range in ranges {
                try read.run(
                    in: db,
                    bind: {
                        $0.bind(1, range.lowerBound)
                        $0.bind(2, min(range.upperBound, maximum))
                    }
                ) { row in
                    let date = row.int64(atColumn: 1)
                    if date >= from ?? Int64.min, date < until ?? Int64.max {
                        documents.append((row.int64(atColumn: 0), date))
                    }
                }
            }
            if !documents.isEmpty, try !body(documents) { return }
        }
    }

    /// Every bucket as its runs, for verification.
    static func all(in db: Database) throws -> [Int64: Data] {
        try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT day, runs FROM date_bucket").map { ($0[0], $0[1]) })
    }
}
