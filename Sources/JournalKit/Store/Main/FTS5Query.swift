import GRDB

/// A search plan's conditions in SQLite FTS5's own syntax, for the `fts5` peer and for FTS5 set
/// up as its best users would: a word as `"w"*`, a phrase as `"w1 … wk"*`, `AND`, `OR`, `NOT`
/// and parentheses in one `MATCH` expression where FTS5 can say it; tags, the star, dates and
/// a condition left out with nothing else required as SQL conditions beside it.
///
/// Invariant: every word and value is bound as an argument; only the schema's names are
/// written into the SQL.
package struct FTS5Query: Sendable, Equatable {
    /// Where the FTS5 table and the columns the conditions read are.
    package struct Schema: Sendable, Equatable {
        /// The FTS5 table.
        package let table: String
        /// The expression of the row's FTS5 rowid in the query's outer table (`e.n`).
        package let rowid: String
        /// The date column (microseconds since 1970).
        package let date: String
        /// The starred column (0 or 1), or nil when the setup has none.
        package let starred: String?
        /// The table of `(entry, name)` tag rows, `entry` being the FTS5 rowid.
        package let tags: String

        /// A schema of these names.
        package init(table: String, rowid: String, date: String, starred: String?, tags: String) {
            self.table = table
            self.rowid = rowid
            self.date = date
            self.starred = starred
            self.tags = tags
        }
    }

    /// The `MATCH` expression, or nil when the query has none to give FTS5.
    package let match: String?
    /// The SQL condition beside it ("1" for none), its values bound to `arguments`.
    package let condition: String
    /// The values of the condition's parameters, in order.
    package let arguments: [DatabaseValue]

    /// The query for `condition` on `schema`.
    package init(_ condition: QueryCondition, schema: Schema) {
        var builder = Builder(schema: schema)
        if let expression = Self.expression(condition) {
            match = expression
            self.condition = "1"
        } else if case .all(let conditions) = condition,
            case let positive = conditions.filter({ if case .not = $0 { false } else { Self.expression($0) != nil } }),
            !positive.isEmpty
        {
            let negative = conditions.filter {
                if case .not(let inner) = $0 { Self.expression(inner) != nil } else { false }
            }
            match = Self.expression(.all(positive + negative))
            let rest = conditions.filter { !positive.contains($0) && !negative.contains($0) }
            self.condition = rest.isEmpty ? "1" : builder.condition(.all(rest))
        } else {
            match = nil
            self.condition = builder.condition(condition)
        }
        arguments = builder.arguments
    }

    /// The condition as one FTS5 expression, or nil when FTS5 can't say it alone (a tag, the
    /// star, a date, a condition left out with nothing else required, or a group holding one).
    static func expression(_ condition: QueryCondition) -> String? {
        switch condition {
        case .word(let word): return quoted(word) + "*"
        case .phrase(let words): return quoted(words.joined(separator: " ")) + "*"
        case .tag, .exactTag, .starred, .dated, .not: return nil
        case .any(let conditions):
            let parts = conditions.compactMap(expression)
            return !conditions.isEmpty && parts.count == conditions.count
                ? "(" + parts.joined(separator: " OR ") + ")" : nil
        case .all(let conditions):
            var required: [String] = []
            var left: [String] = []
            for condition in conditions {
                if case .not(let inner) = condition {
                    guard let part = expression(inner) else { return nil }
                    left.append(part)
                } else {
                    guard let part = expression(condition) else { return nil }
                    required.append(part)
                }
            }
            guard !required.isEmpty else { return nil }
            return "(" + required.joined(separator: " AND ") + ")" + left.map { " NOT " + $0 }.joined()
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Builds SQL conditions, collecting their arguments in order.
    private struct Builder {
        let schema: Schema
        var arguments: [DatabaseValue] = []

        mutating func condition(_ condition: QueryCondition) -> String {
            if let expression = FTS5Query.expression(condition) {
                arguments.append(expression.databaseValue)
                return "\(schema.rowid) IN (SELECT rowid FROM \(schema.table) WHERE \(schema.table) MATCH ?)"
            }
            switch condition {
            case .tag(let name):
                arguments += [name.databaseValue, (name + "/").databaseValue, (name + "0").databaseValue]
                return
                    "\(schema.rowid) IN (SELECT entry FROM \(schema.tags) WHERE name = ? OR (name >= ? AND name < ?))"
            case .exactTag(let name):
                arguments.append(name.databaseValue)
                return "\(schema.rowid) IN (SELECT entry FROM \(schema.tags) WHERE name = ?)"
            case .starred:
                return schema.starred.map { "\($0) = 1" } ?? "0"
            case .dated(let from, let until):
                arguments += [(from ?? Int64.min).databaseValue, (until ?? Int64.max).databaseValue]
                return "(\(schema.date) >= ? AND \(schema.date) < ?)"
            case .all(let conditions):
                return conditions.isEmpty
                    ? "1" : "(" + conditions.map { self.condition($0) }.joined(separator: " AND ") + ")"
            case .any(let conditions):
                return conditions.isEmpty
                    ? "0" : "(" + conditions.map { self.condition($0) }.joined(separator: " OR ") + ")"
            case .not(let condition):
                return "NOT " + self.condition(condition)
            case .word, .phrase:
                preconditionFailure("FTS5 says every word and phrase: \(condition)")
            }
        }
    }
}
