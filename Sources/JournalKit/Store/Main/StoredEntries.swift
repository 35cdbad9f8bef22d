import Foundation
import GRDB

/// The main store's entries and tags read whole, as a check of the derived structures against
/// the entries reads them (``JournalVerifier``).
extension MainStore {
    /// One entry as stored: its number, text, canonical text and date.
    struct StoredEntry {
        let number: Int64
        let text: String
        let canonical: String
        let date: Int64
    }

    /// Every entry, in number order.
    static func entriesInNumberOrder(in db: Database) throws -> MapCursor<RowCursor, StoredEntry> {
        try Row.fetchCursor(
            db, sql: "SELECT n, CAST(text AS BLOB), CAST(canonical AS BLOB), date FROM entry ORDER BY n"
        ).map { row in
            StoredEntry(
                number: row[0], text: (row[1] as ExactText?)?.string ?? "",
                canonical: (row[2] as ExactText?)?.string ?? "",
                date: row[3])
        }
    }

    /// Every entry's number, in order.
    static func numbersInOrder(in db: Database) throws -> DatabaseValueCursor<Int64> {
        try Int64.fetchCursor(db, sql: "SELECT n FROM entry ORDER BY n")
    }

    /// The tags written in each entry's text that has some, in entry-number order: each as its
    /// name and form apart by U+001E, sorted by name, separated by U+001F.
    static func textTagsInNumberOrder(in db: Database) throws -> MapCursor<RowCursor, (entry: Int64, tags: String)> {
        try Row.fetchCursor(
            db,
            sql: """
                SELECT entry, group_concat(name || char(30) || written, char(31))
                FROM (SELECT entry, name, written FROM tag WHERE given = 0 ORDER BY entry, name)
                GROUP BY entry ORDER BY entry
                """
        ).map { (entry: $0[0], tags: $0[1]) }
    }

    /// How many of the counts kept of each form a tag is written in disagree with the tags (all
    /// of the tables' rows, a pending import's too, as the triggers count them: `main.`, past
    /// the views that hide the import, ``PendingImportRecord``).
    static func tagFormMiscounts(in db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT (SELECT count(*) FROM (
                        SELECT name, written, count(*) FROM main.tag GROUP BY name, written
                        EXCEPT SELECT name, written, uses FROM main.tag_form))
                    + (SELECT count(*) FROM (
                        SELECT name, written, uses FROM main.tag_form
                        EXCEPT SELECT name, written, count(*) FROM main.tag GROUP BY name, written))
                """) ?? 0
    }

    /// How many entries the store holds, in the read transaction `db`.
    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0
    }
}
