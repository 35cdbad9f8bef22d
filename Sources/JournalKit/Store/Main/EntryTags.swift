import GRDB
import JournalText

/// The `tag` table of the main store: for each entry, the tags written in its text (`given` 0,
/// always `Tags.inText(text)`, rewritten with the text) and those given to it explicitly
/// (`given` 1, kept until removed), each by its canonical `name` and the form it was `written`
/// in there. An entry's tags are the union.
///
/// Invariant: `tag_form` holds, for every name and form in `tag`, the number of rows that
/// have them (its triggers keep it so in every transaction that writes `tag`), so that the
/// form a tag is shown in costs one indexed read whatever the size of the journal.
enum EntryTags {
    /// The table, created by the main store's migration that adds tags.
    static let schema = """
        CREATE TABLE tag (
            entry INTEGER NOT NULL REFERENCES entry(n) ON DELETE CASCADE,
            name TEXT NOT NULL,
            given INTEGER NOT NULL CHECK (given IN (0, 1)),
            PRIMARY KEY (entry, given, name)
        ) WITHOUT ROWID;
        CREATE INDEX tag_by_name ON tag(name, entry);
        """

    /// The forms tags were written in, added by the migration that keeps them: the column, its
    /// index (for the earliest use of a form) and their counts.
    static let writtenFormsSchema = """
        ALTER TABLE tag ADD COLUMN written TEXT NOT NULL DEFAULT '';
        CREATE INDEX tag_by_form ON tag(name, written);
        CREATE TABLE tag_form (
            name TEXT NOT NULL,
            written TEXT NOT NULL,
            uses INTEGER NOT NULL,
            PRIMARY KEY (name, written)
        ) WITHOUT ROWID;
        """

    /// The triggers that keep `tag_form` counting the rows of `tag`.
    static let formCountTriggers = """
        CREATE TRIGGER tag_form_insert AFTER INSERT ON tag BEGIN
            INSERT INTO tag_form (name, written, uses) VALUES (new.name, new.written, 1)
                ON CONFLICT (name, written) DO UPDATE SET uses = uses + 1;
        END;
        CREATE TRIGGER tag_form_delete AFTER DELETE ON tag BEGIN
            UPDATE tag_form SET uses = uses - 1 WHERE name = old.name AND written = old.written;
            DELETE FROM tag_form WHERE name = old.name AND written = old.written AND uses <= 0;
        END;
        CREATE TRIGGER tag_form_update AFTER UPDATE OF name, written ON tag BEGIN
            UPDATE tag_form SET uses = uses - 1 WHERE name = old.name AND written = old.written;
            DELETE FROM tag_form WHERE name = old.name AND written = old.written AND uses <= 0;
            INSERT INTO tag_form (name, written, uses) VALUES (new.name, new.written, 1)
                ON CONFLICT (name, written) DO UPDATE SET uses = uses + 1;
        END;
        """

    /// Adds `tags` to entry `number`'s tags, as written in its text or as given; a given tag
    /// it has already keeps its form.
    static func insert(_ tags: [Tag], given: Bool, for number: Int64, in db: Database) throws {
        guard !tags.isEmpty else { return }
        var rows = inserts(in: db)
        for tag in tags { try rows.add((number, tag, given)) }
        try rows.flush()
    }

    /// Tags added many to a statement, as ``insert(_:given:for:in:)`` adds them: for the
    /// thousands of an import, so that a statement (each run in a statement journal of its own,
    /// for the trigger that counts forms) serves many tags rather than one.
    static func inserts(in db: Database) -> MultiRowInsert<(entry: Int64, tag: Tag, given: Bool)> {
        MultiRowInsert(
            into: "tag", columns: ["entry", "name", "given", "written"], ignoringDuplicates: true, in: db
        ) { bind, first, row in
            bind.bind(first, row.entry)
            bind.bind(first + 1, text: row.tag.name)
            bind.bind(first + 2, row.given)
            bind.bind(first + 3, text: row.tag.written)
        }
    }

    /// Replaces entry `number`'s tags written in its text with `tags`.
    static func replaceTextTags(_ tags: [Tag], for number: Int64, in db: Database) throws {
        let current = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT name, written FROM tag WHERE entry = ? AND given = 0"), arguments: [number]
        ).map { Tag(name: $0[0], written: $0[1]) }
        guard Set(current) != Set(tags) else { return }
        try db.execute(sql: "DELETE FROM tag WHERE entry = ? AND given = 0", arguments: [number])
        try insert(tags, given: false, for: number, in: db)
    }

    /// Removes the given tags `names` from entry `number`; returns those that are written in
    /// its text (which only an edit of the text removes).
    static func removeGiven(_ names: [String], from number: Int64, in db: Database) throws -> [String] {
        let remove = try db.cachedStatement(sql: "DELETE FROM tag WHERE entry = ? AND given = 1 AND name = ?")
        for name in names { try remove.execute(arguments: [number, name]) }
        let written = try String.fetchAll(
            db, sql: "SELECT name FROM tag WHERE entry = ? AND given = 0", arguments: [number])
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

    /// The tags of each of the entries `numbers` that has tags, sorted by name, each in the
    /// form the journal shows it in (``shownForms(of:in:)``).
    static func tags(of numbers: some Collection<Int64>, in db: Database) throws -> [Int64: [Tag]] {
        var names: [Int64: Set<String>] = [:]
        let statement = try db.cachedStatement(
            sql: "SELECT entry, name FROM tag WHERE entry \(SQLParameters.inJSONArray)")
        let rows = try Row.fetchCursor(statement, arguments: [SQLParameters.jsonArray(numbers)])
        while let row = try rows.next() { names[row[0], default: []].insert(row[1]) }
        let forms = try shownForms(of: names.values.reduce(into: Set()) { $0.formUnion($1) }, in: db)
        return names.mapValues { $0.sorted().map { Tag(name: $0, written: forms[$0] ?? $0) } }
    }

    /// The form each tag of `names` is shown in: the form most used in the journal, ties going
    /// to the form of the earliest entry (by date, then number; on one entry, the form written
    /// in its text before a given one).
    static func shownForms(of names: Set<String>, in db: Database) throws -> [String: String] {
        let statement = try db.cachedStatement(
            sql: "SELECT written, uses FROM tag_form WHERE name = ? ORDER BY uses DESC")
        var shown: [String: String] = [:]
        for name in names {
            let forms = try Row.fetchAll(statement, arguments: [name]).map {
                (written: $0[0] as String, uses: $0[1] as Int)
            }
            shown[name] = try shownForm(of: name, among: forms, in: db)
        }
        return shown
    }

    /// Of the `forms` of tag `name` with their uses (most used first), the one shown.
    private static func shownForm(
        of name: String, among forms: [(written: String, uses: Int)], in db: Database
    ) throws -> String? {
        guard let most = forms.first else { return nil }
        let tied = forms.prefix { $0.uses == most.uses }.map(\.written)
        guard tied.count > 1 else { return most.written }
        let placeholders = SQLParameters.list(tied.count)
        return try String.fetchOne(
            db,
            sql: """
                SELECT tag.written FROM tag JOIN entry ON entry.n = tag.entry
                WHERE tag.name = ? AND tag.written IN (\(placeholders)) ORDER BY entry.date, entry.n, tag.given, tag.written LIMIT 1
                """, arguments: StatementArguments([name] + tied)) ?? most.written
    }

    /// Every tag with the number of entries that have it, most used first (ties by name), in
    /// the form it is shown in.
    static func counts(in db: Database) throws -> [(tag: Tag, entries: Int)] {
        var forms: [String: [(written: String, uses: Int)]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT name, written, uses FROM tag_form ORDER BY name, uses DESC")
        while let row = try rows.next() { forms[row[0], default: []].append((row[1], row[2])) }
        return try Row.fetchAll(
            db, sql: "SELECT name, count(DISTINCT entry) AS uses FROM tag GROUP BY name ORDER BY uses DESC, name"
        )
        .map { row in
            let name: String = row[0]
            return (Tag(name: name, written: try shownForm(of: name, among: forms[name] ?? [], in: db) ?? name), row[1])
        }
    }

    /// The tags of the entries `numbers` with how many of them have each, most used first (ties
    /// by name), in the form each is shown in.
    static func counts(of numbers: [Int64], in db: Database) throws -> [(tag: Tag, entries: Int)] {
        var counts: [String: Int] = [:]
        let statement = try db.cachedStatement(
            sql: "SELECT DISTINCT entry, name FROM tag WHERE entry \(SQLParameters.inJSONArray)")
        let rows = try Row.fetchCursor(statement, arguments: [SQLParameters.jsonArray(numbers)])
        while let row = try rows.next() { counts[row[1], default: 0] += 1 }
        let forms = try shownForms(of: Set(counts.keys), in: db)
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map {
            (Tag(name: $0.key, written: forms[$0.key] ?? $0.key), $0.value)
        }
    }

    /// Writes the text tags of every entry already in the store: the migration that adds tags.
    static func tagExistingEntries(in db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT n, CAST(text AS BLOB) FROM entry")
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO tag (entry, name, given) VALUES (?, ?, 0)")
        while let row = try rows.next() {
            for name in Tags.names(inText: (row[1] as ExactText).string) {
                try insert.execute(arguments: [row[0], name])
            }
        }
    }

    /// Fills in the form of every tag already in the store (a given tag's form was not kept: its
    /// name stands for it), then counts them: the migration that keeps written forms, before
    /// the triggers that keep the counts.
    static func writeExistingForms(in db: Database) throws {
        try db.execute(sql: "UPDATE tag SET written = name WHERE given = 1")
        let rows = try Row.fetchCursor(
            db, sql: "SELECT n, CAST(text AS BLOB) FROM entry WHERE n IN (SELECT entry FROM tag WHERE given = 0)")
        let update = try db.cachedStatement(
            sql: "UPDATE tag SET written = ? WHERE entry = ? AND given = 0 AND name = ?")
        while let row = try rows.next() {
            for tag in Tags.inText((row[1] as ExactText).string) {
                try update.execute(arguments: [tag.written, row[0], tag.name])
            }
        }
        try db.execute(sql: "UPDATE tag SET written = name WHERE written = ''")
        try recount(in: db)
    }

    /// Counts the forms of every tag again, from the tags themselves.
    static func recount(in db: Database) throws {
        try db.execute(sql: "DELETE FROM tag_form")
        try db.execute(
            sql:
                "INSERT INTO tag_form (name, written, uses) SELECT name, written, count(*) FROM tag GROUP BY name, written"
        )
    }
}
