import Foundation
import GRDB

/// The main store's record of a pending import (``PendingImport``, as JSON under the
/// `store_info` key `pending_import`), and what keeps its entries out of every read.
///
/// Invariant: while the record exists, every entry numbered from its first entry on, with its
/// tags, is the import's, and no reader connection sees it. Before each read transaction a
/// reader connection gets TEMP views named `entry` and `tag` that leave those entries out, and
/// `tag_form` that counts the forms tags are written in without theirs (SQLite resolves an
/// unqualified name in `temp` first), and drops them once no import is pending, so that the
/// reads of a journal without one run their plain queries (a count through the view cannot use
/// SQLite's count of the table's b-tree). The writer never has the views: it sees every entry.
enum PendingImportRecord {
    private static let key = "pending_import"

    /// The pending import, if there is one.
    static func read(in db: Database) throws -> PendingImport? {
        guard
            let json = try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM store_info WHERE key = ?"), arguments: [key])
        else { return nil }
        do {
            return try JSONDecoder().decode(PendingImport.self, from: Data(json.utf8))
        } catch {
            throw JournalError.store(
                "the record of a pending import is damaged (\(error)): journal import --abandon drops it")
        }
    }

    /// Records `pending`, in the write transaction of the step it describes.
    static func write(_ pending: PendingImport, in db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        try db.execute(
            sql:
                "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [key, json])
    }

    /// Removes the record: the import's entries are visible from the commit on.
    static func delete(in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_info WHERE key = ?", arguments: [key])
    }

    /// Gives the reader connection `db` the views that hide a pending import's entries when one
    /// is pending, and takes them away when none is (see the invariant above).
    static func prepareRead(_ db: Database) throws {
        let state: Row?
        do {
            state = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM main.store_info WHERE key = '\(key)'),
                               EXISTS (SELECT 1 FROM temp.sqlite_schema WHERE name = 'entry')
                        """))
        } catch {
            // A store being created has no table yet, and nothing pending.
            if try !db.tableExists("store_info", in: "main") { return }
            throw error
        }
        guard let state else { return }
        let (pending, hidden): (Bool, Bool) = (state[0], state[1])
        guard pending != hidden else { return }
        if pending {
            let bound =
                "coalesce((SELECT json_extract(value, '$.firstEntry') FROM main.store_info WHERE key = '\(key)'), 9223372036854775807)"
            // `+n`: the bound is no index constraint, so that SQLite keeps the plans it has
            // without it (the date index for a page, not a scan of the table by number).
            try db.execute(
                sql: """
                    CREATE TEMP VIEW entry AS SELECT * FROM main.entry WHERE +n < \(bound);
                    CREATE TEMP VIEW tag AS SELECT * FROM main.tag WHERE +entry < \(bound);
                    CREATE TEMP VIEW tag_form AS SELECT name, written, uses FROM (
                        SELECT name, written, uses - (
                            SELECT count(*) FROM main.tag
                            WHERE tag.name = form.name AND tag.written = form.written AND tag.entry >= \(bound)
                        ) AS uses
                        FROM main.tag_form AS form)
                    WHERE uses > 0;
                    """)
        } else {
            try db.execute(sql: "DROP VIEW temp.entry; DROP VIEW temp.tag; DROP VIEW temp.tag_form")
        }
    }
}
