import GRDB
import GRDBSQLite
import JournalText

/// Writes new entries with their tags in one main-store transaction, unless the store holds
/// them already.
///
/// An import writes thousands of entries to a transaction: its statements are prepared once
/// for them, not looked up by their SQL for each (hashing the SQL, and building the duplicate
/// check's each time), and run through SQLite's C API (``Statement/run(in:bind:row:)``). The
/// first took 11–27 ms of CPU off the import of Debian's fortunes, the second 25–43 ms (`perf
/// stat`, of about 0.75 s).
struct EntryInserter {
    private let db: Database
    private let insertEntry: Statement
    /// The entries' tags, written many to a statement: by ``finish()`` at the latest.
    private var tags: MultiRowInsert<(entry: Int64, tag: Tag, given: Bool)>
    /// The duplicate checks, prepared when an entry first needs one.
    private var entryExists: Statement?
    private var originExists: Statement?
    private var textsOnDate: Statement?
    private var textsInDates: Statement?

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

    /// Whether the store holds `entry` already: the entry of this store it was exported from,
    /// an entry of the same origin, or (for a format without identities) one with the same text
    /// and date numbered below `first`, the first entry of the write under way: an input that
    /// repeats an entry imports it twice (and, imported again, neither).
    mutating func isPresent(_ entry: PreparedEntry, before first: Int64?) throws -> Bool {
        if let number = entry.exportedFrom,
            try hasRow(&entryExists, "SELECT 1 FROM entry WHERE n = ?", bind: { $0.bind(1, number) })
        {
            return true
        }
        if let origin = entry.origin,
            try hasRow(
                &originExists, "SELECT 1 FROM entry WHERE origin = ? LIMIT 1", bind: { $0.bind(1, text: origin) })
        {
            return true
        }
        guard let match = entry.sameDateAndText else { return false }
        // An exact date is one key of `entry_by_date` (date, n): the entries of the import under
        // way, numbered from `first`, are not read (a file of undated lines gives them all one
        // date, and a range would read every one written before, at each line).
        let date = entry.date.microseconds
        var texts: [String] = []
        func collect(_ statement: Statement) {
            texts.append(statement.withBlob(atColumn: 0) { String(decoding: $0, as: UTF8.self) })
        }
        if match.precision == 1 {
            try prepared(&textsOnDate, "SELECT CAST(text AS BLOB) FROM entry WHERE date = ? AND n < ?").run(in: db) {
                $0.bind(1, date)
                $0.bind(2, first ?? Int64.max)
            } row: {
                collect($0)
            }
        } else {
            try prepared(&textsInDates, "SELECT CAST(text AS BLOB) FROM entry WHERE date >= ? AND date < ? AND n < ?")
                .run(in: db) {
                    $0.bind(1, date)
                    $0.bind(2, date + match.precision)
                    $0.bind(3, first ?? Int64.max)
                } row: {
                    collect($0)
                }
        }
        guard !texts.isEmpty else { return false }
        let key = match.key(entry.text)
        return texts.contains { match.key($0) == key }
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
