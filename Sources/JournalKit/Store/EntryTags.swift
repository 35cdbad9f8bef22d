import Algorithms
import GRDB
import JournalText

/// The `tag` table of the main store: for each entry, the canonical names of the tags written
/// in its text (`given` 0, always `Tags.inText(text)`, rewritten with the text) and of those
/// given to it explicitly (`given` 1, kept until removed). An entry's tags are the union.
enum EntryTags {
    /// The table, created by the main store's migration.
    static let schema = """
        CREATE TABLE tag (
            entry INTEGER NOT NULL REFERENCES entry(n) ON DELETE CASCADE,
            name TEXT NOT NULL,
            given INTEGER NOT NULL CHECK (given IN (0, 1)),
            PRIMARY KEY (entry, given, name)
        ) WITHOUT ROWID;
        CREATE INDEX tag_by_name ON tag(name, entry);
        """

    /// Adds `names` to entry `number`'s tags, as written in its text or as given.
    static func insert(_ names: [String], given: Bool, for number: Int64, in db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO tag (entry, name, given) VALUES (?, ?, ?)")
        for name in names { try statement.execute(arguments: [number, name, given]) }
    }

    /// Replaces entry `number`'s tags written in its text with `names`.
    static func replaceTextTags(_ names: [String], for number: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM tag WHERE entry = ? AND given = 0", arguments: [number])
        try insert(names, given: false, for: number, in: db)
    }

    /// Removes the given tags `names` from entry `number`; returns those that are written in
    /// its text (which only an edit of the text removes).
    static func removeGiven(_ names: [String], from number: Int64, in db: Database) throws -> [String] {
        let remove = try db.cachedStatement(sql: "DELETE FROM tag WHERE entry = ? AND given = 1 AND name = ?")
        for name in names { try remove.execute(arguments: [number, name]) }
        let written = try String.fetchAll(db, sql: "SELECT name FROM tag WHERE entry = ? AND given = 0", arguments: [number])
        return names.filter(written.contains)
    }

    /// The entries that have the tag `name` or one below it (`travel/japan` for `travel`),
    /// through the name index: the name itself, then the range of names that start `name/`.
    static func entries(taggedAtOrBelow name: String, maximum: Int64, in db: Database) throws -> DocumentSet {
        var set = DocumentSet(maximum: maximum)
        let numbers = try Int64.fetchCursor(
            db.cachedStatement(sql: "SELECT entry FROM tag WHERE name = ?1 OR (name >= ?2 AND name < ?3)"),
            arguments: [name, name + "/", name + "0"])
        while let number = try numbers.next() { set.insert(number) }
        return set
    }

    /// The sorted tag names of each of the entries `numbers` that has tags.
    static func names(of numbers: some Collection<Int64>, in db: Database) throws -> [Int64: [String]] {
        var names: [Int64: Set<String>] = [:]
        for chunk in numbers.chunks(ofCount: 500) {
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchCursor(
                db, sql: "SELECT entry, name FROM tag WHERE entry IN (\(placeholders))", arguments: StatementArguments(Array(chunk)))
            while let row = try rows.next() { names[row[0], default: []].insert(row[1]) }
        }
        return names.mapValues { $0.sorted() }
    }

    /// Every tag with the number of entries that have it, most used first (ties by name).
    static func counts(in db: Database) throws -> [(name: String, entries: Int)] {
        try Row.fetchAll(db, sql: "SELECT name, count(DISTINCT entry) AS uses FROM tag GROUP BY name ORDER BY uses DESC, name")
            .map { ($0[0], $0[1]) }
    }

    /// Writes the text tags of every entry already in the store: the migration that adds tags.
    static func tagExistingEntries(in db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT n, CAST(text AS BLOB) FROM entry")
        while let row = try rows.next() {
            try insert(Tags.inText((row[1] as ExactText).string), given: false, for: row[0], in: db)
        }
    }
}
