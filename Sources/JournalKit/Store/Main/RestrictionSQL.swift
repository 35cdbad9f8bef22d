import GRDB

/// A restriction (a ``QueryCondition`` on dates, tags and the star only) as a condition on the
/// main store's `entry` rows: dates through the date index, the star as a column, each tag
/// through the tag index.
///
/// Invariant: only conditions that are restrictions reach it (``QueryCondition/isRestriction``):
/// words are the search store's or a strategy's to answer.
extension QueryCondition {
    /// The SQL condition and its arguments; `table` qualifies the columns (`e.`) when the query
    /// joins another table.
    func sql(table: String = "") -> (sql: String, arguments: StatementArguments) {
        switch self {
        case .dated(let from, let until):
            var parts: [String] = []
            var arguments = StatementArguments()
            if let from {
                parts.append("\(table)date >= ?")
                arguments += [from]
            }
            if let until {
                parts.append("\(table)date < ?")
                arguments += [until]
            }
            return (parts.isEmpty ? "1" : "(" + parts.joined(separator: " AND ") + ")", arguments)
        case .starred:
            return ("\(table)starred = 1", [])
        case .exactTag(let name):
            return ("\(table)n IN (SELECT entry FROM tag WHERE name = ?)", [name])
        case .tag(let name):
            return (
                "\(table)n IN (SELECT entry FROM tag WHERE name = ? OR (name >= ? AND name < ?))",
                [name, name + "/", name + "0"]
            )
        case .all(let conditions):
            return Self.joined(conditions, with: "AND", empty: "1", table: table)
        case .any(let conditions):
            return Self.joined(conditions, with: "OR", empty: "0", table: table)
        case .not(let condition):
            let (sql, arguments) = condition.sql(table: table)
            return ("NOT " + sql, arguments)
        case .word, .phrase:
            preconditionFailure("a word reached the main store's restriction: \(self)")
        }
    }

    private static func joined(
        _ conditions: [QueryCondition], with operator: String, empty: String, table: String
    ) -> (sql: String, arguments: StatementArguments) {
        guard !conditions.isEmpty else { return (empty, []) }
        var arguments = StatementArguments()
        let parts = conditions.map { condition in
            let (sql, values) = condition.sql(table: table)
            arguments += values
            return sql
        }
        return ("(" + parts.joined(separator: " \(`operator`) ") + ")", arguments)
    }

    /// The date column to order by, `table` qualifying it. With days of several years (on this
    /// day) it is `+date`: SQLite then reads each year's day through the date index and sorts
    /// the few entries found, rather than walking the whole index in date order to find them.
    func dateOrder(table: String = "") -> String {
        holdsSeveralSpans ? "+\(table)date" : "\(table)date"
    }

    private var holdsSeveralSpans: Bool {
        switch self {
        case .any(let conditions):
            conditions.count > 1 && conditions.allSatisfy { if case .dated = $0 { true } else { false } }
        case .all(let conditions): conditions.contains(where: \.holdsSeveralSpans)
        case .word, .phrase, .tag, .exactTag, .starred, .dated, .not: false
        }
    }
}

extension Optional where Wrapped == QueryCondition {
    /// The SQL of a restriction that may be none ("1": every entry).
    func sql(table: String = "") -> (sql: String, arguments: StatementArguments) {
        self?.sql(table: table) ?? ("1", [])
    }

    /// The date column to order by (see ``QueryCondition/dateOrder(table:)``).
    func dateOrder(table: String = "") -> String { self?.dateOrder(table: table) ?? "\(table)date" }
}

extension MainStore {
    /// The largest entry number (0 for an empty journal): what a set of entry numbers is sized
    /// for.
    static func maximumNumber(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(n) FROM entry")) ?? 0
    }

    /// The entries that meet `restriction`, as a set for numbers up to `maximum`: a tag
    /// through the tag index alone, anything else through the entry table.
    static func numbers(meeting restriction: QueryCondition, maximum: Int64, in db: Database) throws -> DocumentSet {
        let numbers: DatabaseValueCursor<Int64>
        switch restriction {
        case .tag(let name):
            return try EntryTags.entries(taggedAtOrBelow: name, maximum: maximum, in: db)
        case .exactTag(let name):
            numbers = try Int64.fetchCursor(
                db.cachedStatement(sql: "SELECT entry FROM tag WHERE name = ?"), arguments: [name])
        case .starred, .dated, .all, .any, .not, .word, .phrase:
            let (condition, arguments) = restriction.sql()
            numbers = try Int64.fetchCursor(db, sql: "SELECT n FROM entry WHERE \(condition)", arguments: arguments)
        }
        var set = DocumentSet(maximum: maximum)
        while let number = try numbers.next() { set.insert(number) }
        return set
    }
}
