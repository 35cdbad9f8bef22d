import Foundation
import GRDB
import JournalText

/// What a substring strategy looks for in an entry's text, as the main store tests it on every
/// row a restriction lets through: bytes in the text as written, in the text folded at query
/// time, or in the canonical text stored with it; or a compiled pattern.
///
/// Invariant: the needle is bound, never written into the SQL, and byte search on UTF-8 is
/// code-point search.
package enum TextMatch: Sendable {
    /// The needle's bytes in the text as written.
    case written(String)
    /// The needle's bytes in the text folded by `Fold` (the needle folded alike).
    case folded(Fold, String)
    /// The needle's bytes in the canonical text stored with the entry.
    case canonical(String)
    /// A match of the pattern in the text as written, or in the text folded by the fold.
    case pattern(RegexMatcher, Fold?)

    /// The condition on an `entry` row, its arguments, and the function the condition calls
    /// that the connection must have while the query runs.
    fileprivate var condition: (sql: String, arguments: StatementArguments, function: DatabaseFunction?) {
        switch self {
        case .written(let needle):
            return ("instr(CAST(text AS BLOB), ?) > 0", [Data(needle.utf8)], nil)
        case .folded(let fold, let needle):
            return ("instr(journal_fold(CAST(text AS BLOB), ?), ?) > 0", [fold.rawValue, Data(needle.utf8)], nil)
        case .canonical(let needle):
            return ("instr(CAST(canonical AS BLOB), ?) > 0", [Data(needle.utf8)], nil)
        case .pattern(let matcher, let fold):
            let function = DatabaseFunction("journal_matches", argumentCount: 1, pure: true) { values in
                guard case .blob(let data) = values[0].storage else { return false }
                return data.withUnsafeBytes { raw in
                    let utf8 = raw.bindMemory(to: UInt8.self)
                    guard let fold else { return matcher.matches(utf8: utf8) }
                    return matcher.matches(fold.apply(toUTF8: utf8))
                }
            }
            return ("journal_matches(CAST(text AS BLOB))", [], function)
        }
    }
}

extension MainStore {
    /// The entries that meet `restriction` and whose text holds `match`, in the page's date
    /// order: the exact total and the numbers of `page`, from one scan that yields both. The restriction's
    /// condition comes first, so that a date range reads only its rows, through the date index.
    package func newestFirst(
        matching match: TextMatch, restriction: QueryCondition?, page: PageRequest, cancellation: Cancellation?
    ) throws(JournalError) -> (total: Int, numbers: [Int64]) {
        let (sql, arguments, function) = Self.pageQuery(
            matching: match, restriction: restriction, direction: page.sqlDirection)
        return try read(cancellation: cancellation) { db in
            if let function { db.add(function: function) }
            defer { if let function { db.remove(function: function) } }
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments + [page.sqlLimit, page.offset])
            let total: Int
            if let first = rows.first {
                total = first[1]
            } else if page.offset == 0 {
                total = 0
            } else {
                total = try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments + [-1, 0]) ?? 0
            }
            return (total, rows.map { $0[0] })
        }
    }

    /// The query for a page (its `LIMIT ? OFFSET ?` still to bind) of the entries that meet
    /// `restriction` and hold `match`, with their count; the function the query calls, if any.
    static func pageQuery(
        matching match: TextMatch, restriction: QueryCondition?, direction: String = "DESC"
    ) -> (sql: String, arguments: StatementArguments, function: DatabaseFunction?) {
        let (textCondition, textArguments, function) = match.condition
        let (restrictionSQL, restrictionArguments) = restriction.sql()
        let sql = """
            SELECT n, count(*) OVER () FROM entry WHERE \(restrictionSQL) AND \(textCondition)
            ORDER BY \(restriction.dateOrder()) \(direction), n \(direction) LIMIT ? OFFSET ?
            """
        return (sql, restrictionArguments + textArguments, function)
    }
}
