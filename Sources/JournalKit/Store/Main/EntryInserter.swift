import GRDB
import GRDBSQLite
import JournalText

/// Writes new entries with their tags in one main-store transaction, unless the store holds
/// them already.
///
/// An import writes thousands of entries to a transaction: its statements are prepared once
/// for them, not looked up by their SQL for each (hashing the SQL, and building the duplicate
/// check's each time), and run through SQLite's C API (``Statement/run(in:bind:row:)``).
///
/// The duplicate check reads the entries of a date once per write, however many input entries
/// share it (a file of undated lines gives them all one): an import is linear in its input, the
/// same file imported again included.
struct EntryInserter {
    private let db: Database
    private let insertEntry: Statement
    /// The entries' tags, written many to a statement: by ``finish()`` at the latest.
    private var tags: MultiRowInsert<(entry: Int64, tag: Tag, given: Bool)>
    /// The duplicate checks, prepared when an entry first needs one.
    private var entryByNumber: Statement?
    private var originExists: Statement?
    private var entriesOnDate: Statement?
    private var entriesInDates: Statement?
    /// What the store held before this write, by the dates looked up: each entry's text, under
    /// the key of the format that looked it up, with its star and tags.
    private var held = HeldEntries()

    /// An inserter for `db`'s write transaction, which it must not outlive.
    init(_ db: Database) throws {
        self.db = db
        insertEntry = try db.cachedStatement(
            sql: "INSERT INTO entry (date, text, canonical, starred, origin) VALUES (?, ?, ?, ?, ?)")
        tags = EntryTags.inserts(in: db)
    }

    /// Writes the tags of the entries written so far: before the transaction ends, or anything
    /// reads them.
    mutating func finish() throws {
        try tags.flush()
    }

    /// Writes `entry` with its tags and returns its number, or returns nil when the store held
    /// it before entry `first` (``isPresent(_:before:)``).
    mutating func insertUnlessPresent(_ entry: PreparedEntry, before first: Int64?) throws -> Int64? {
        if try isPresent(entry, before: first) { return nil }
        try insertEntry.run(in: db) {
            $0.bind(1, entry.date.microseconds)
            $0.bind(2, text: entry.text)
            $0.bind(3, text: entry.canonical)
            $0.bind(4, entry.starred)
            $0.bind(5, text: entry.origin)
        }
        let number = sqlite3_last_insert_rowid(db.sqliteConnection)
        for tag in entry.textTags { try tags.add((number, tag, false)) }
        for tag in entry.givenTags { try tags.add((number, tag, true)) }
        return number
    }

    /// Whether the store holds `entry` already: an entry of the same origin (an origin names
    /// one entry); or, holding at least its star and its tags, the entry of this store it was
    /// exported from, when that entry still has its date and text (a copy of the journal, whose
    /// numbers are the same, holds other entries under them), or (for a format without
    /// identities) an entry numbered below `first`, the first entry of the write under way,
    /// with its date and text. An input that repeats an entry imports it twice (and, imported
    /// again, neither); one that differs from the entry held by a star or a tag is not the same.
    mutating func isPresent(_ entry: PreparedEntry, before first: Int64?) throws -> Bool {
        if let origin = entry.origin,
            try hasRow(
                &originExists, "SELECT 1 FROM entry WHERE origin = ? LIMIT 1", bind: { $0.bind(1, text: origin) })
        {
            return true
        }
        let wanted = HeldEntries.Held(
            starred: entry.starred, tags: Set((entry.textTags + entry.givenTags).map(\.name)))
        if let number = entry.exportedFrom, let exported = try self.entry(numbered: number),
            exported.date == entry.date.microseconds, exported.text == entry.text, wanted.isWithin(exported.held)
        {
            return true
        }
        guard let match = entry.sameDateAndText else { return false }
        let dates = HeldEntries.Dates(start: entry.date.microseconds, precision: match.precision)
        if !held.has(dates) { try read(dates, before: first) }
        return held.holds(match.key(entry.text), as: wanted, on: dates, keyedBy: match.key)
    }

    /// Reads the entries of `dates` numbered below `first` into ``held``. An exact date is one
    /// key of `entry_by_date` (date, n): the entries of the import under way, numbered from
    /// `first`, are not read.
    private mutating func read(_ dates: HeldEntries.Dates, before first: Int64?) throws {
        var found: [(number: Int64, text: String, starred: Bool)] = []
        let statement =
            dates.precision == 1
            ? try prepared(&entriesOnDate, "SELECT n, CAST(text AS BLOB), starred FROM entry WHERE date = ? AND n < ?")
            : try prepared(
                &entriesInDates,
                "SELECT n, CAST(text AS BLOB), starred FROM entry WHERE date >= ? AND date < ? AND n < ?")
        try statement.run(in: db) {
            $0.bind(1, dates.start)
            if dates.precision == 1 {
                $0.bind(2, first ?? Int64.max)
            } else {
                $0.bind(2, dates.start + dates.precision)
                $0.bind(3, first ?? Int64.max)
            }
        } row: { row in
            found.append(
                (
                    row.int64(atColumn: 0), row.withBlob(atColumn: 1) { String(decoding: $0, as: UTF8.self) },
                    row.int64(atColumn: 2) != 0
                ))
        }
        let tags = try EntryTags.tags(of: found.map(\.number), in: db)
        held.record(
            dates,
            found.map { entry in
                (
                    entry.text,
                    HeldEntries.Held(starred: entry.starred, tags: Set((tags[entry.number] ?? []).map(\.name)))
                )
            })
    }

    /// The entry numbered `number`, as the duplicate check compares it, or nil when there is none.
    private mutating func entry(numbered number: Int64) throws -> (date: Int64, text: String, held: HeldEntries.Held)? {
        var found: (date: Int64, text: String, starred: Bool)?
        try prepared(&entryByNumber, "SELECT date, CAST(text AS BLOB), starred FROM entry WHERE n = ?").run(in: db) {
            $0.bind(1, number)
        } row: { row in
            found = (
                row.int64(atColumn: 0), row.withBlob(atColumn: 1) { String(decoding: $0, as: UTF8.self) },
                row.int64(atColumn: 2) != 0
            )
        }
        guard let found else { return nil }
        let tags = try EntryTags.tags(of: [number], in: db)[number] ?? []
        return (found.date, found.text, HeldEntries.Held(starred: found.starred, tags: Set(tags.map(\.name))))
    }

    /// Whether `statement` (prepared from `sql` the first time) gives a row.
    private func hasRow(
        _ statement: inout Statement?, _ sql: String, bind: (borrowing DirectBindings) -> Void
    ) throws -> Bool {
        var found = false
        try prepared(&statement, sql).run(in: db, bind: bind) { _ in found = true }
        return found
    }

    /// `statement`, prepared from `sql` the first time it is needed.
    private func prepared(_ statement: inout Statement?, _ sql: String) throws -> Statement {
        if let statement { return statement }
        let made = try db.cachedStatement(sql: sql)
        statement = made
        return made
    }
}
