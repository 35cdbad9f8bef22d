import GRDB

/// A ``QueryTerm`` in SQLite FTS5's own syntax, for the `fts5` peer and for FTS5 set up as its
/// best users would: a word as `"w"*`, a phrase as `"w1 … wk"*`, `AND`, `OR`, `NOT` and
/// parentheses in one `MATCH` expression where FTS5 can say it; tags, `is:starred`, dates and a
/// term left out with nothing else required as SQL conditions beside it.
public struct FTS5Query: Sendable, Equatable {
    /// Where the FTS5 table and the columns the conditions read are.
    public struct Schema: Sendable, Equatable {
        /// The FTS5 table.
        public let table: String
        /// The expression of the row's FTS5 rowid in the query's outer table (`e.n`).
        public let rowid: String
        /// The date column (microseconds since 1970).
        public let date: String
        /// The starred column (0 or 1), or nil when the setup has none.
        public let starred: String?
        /// The table of `(entry, name)` tag rows, `entry` being the FTS5 rowid.
        public let tags: String

        /// A schema of these names.
        public init(table: String, rowid: String, date: String, starred: String?, tags: String) {
            self.table = table
            self.rowid = rowid
            self.date = date
            self.starred = starred
            self.tags = tags
        }
    }

    /// The `MATCH` expression, or nil when the query has none to give FTS5.
    public let match: String?
    /// The SQL condition beside it ("1" for none), its values bound to `arguments`.
    public let condition: String
    /// The values of the condition's parameters, in order.
    public let arguments: [DatabaseValue]

    /// The query for `term` on `schema`.
    public init(_ term: QueryTerm, schema: Schema) {
        var builder = Builder(schema: schema)
        if let expression = Self.expression(term) {
            match = expression
            condition = "1"
        } else if case .all(let terms) = term,
            case let positive = terms.filter({ if case .not = $0 { false } else { Self.expression($0) != nil } }),
            !positive.isEmpty
        {
            let negative = terms.filter { if case .not(let inner) = $0 { Self.expression(inner) != nil } else { false } }
            match = Self.expression(.all(positive + negative))
            let rest = terms.filter { !positive.contains($0) && !negative.contains($0) }
            condition = rest.isEmpty ? "1" : builder.condition(.all(rest))
        } else {
            match = nil
            condition = builder.condition(term)
        }
        arguments = builder.arguments
    }

    /// The term as one FTS5 expression, or nil when FTS5 can't say it alone (a tag, a field, a
    /// term left out with nothing else required, or a group holding one).
    static func expression(_ term: QueryTerm) -> String? {
        switch term {
        case .word(let word): return quoted(word) + "*"
        case .phrase(let words): return quoted(words.joined(separator: " ")) + "*"
        case .tag, .starred, .dated, .not: return nil
        case .any(let terms):
            let parts = terms.compactMap(expression)
            return !terms.isEmpty && parts.count == terms.count ? "(" + parts.joined(separator: " OR ") + ")" : nil
        case .all(let terms):
            var required: [String] = []
            var left: [String] = []
            for term in terms {
                if case .not(let inner) = term {
                    guard let part = expression(inner) else { return nil }
                    left.append(part)
                } else {
                    guard let part = expression(term) else { return nil }
                    required.append(part)
                }
            }
            guard !required.isEmpty else { return nil }
            return "(" + required.joined(separator: " AND ") + ")" + left.map { " NOT " + $0 }.joined()
        }
    }

    private static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Builds SQL conditions, collecting their arguments in order.
    private struct Builder {
        let schema: Schema
        var arguments: [DatabaseValue] = []

        mutating func condition(_ term: QueryTerm) -> String {
            if let expression = FTS5Query.expression(term) {
                arguments.append(expression.databaseValue)
                return "\(schema.rowid) IN (SELECT rowid FROM \(schema.table) WHERE \(schema.table) MATCH ?)"
            }
            switch term {
            case .tag(let name):
                arguments += [name.databaseValue, (name + "/").databaseValue, (name + "0").databaseValue]
                return "\(schema.rowid) IN (SELECT entry FROM \(schema.tags) WHERE name = ? OR (name >= ? AND name < ?))"
            case .starred:
                return schema.starred.map { "\($0) = 1" } ?? "0"
            case .dated(let from, let until):
                arguments += [(from?.microseconds ?? Int64.min).databaseValue, (until?.microseconds ?? Int64.max).databaseValue]
                return "(\(schema.date) >= ? AND \(schema.date) < ?)"
            case .all(let terms):
                return "(" + terms.map { condition($0) }.joined(separator: " AND ") + ")"
            case .any(let terms):
                return terms.isEmpty ? "0" : "(" + terms.map { condition($0) }.joined(separator: " OR ") + ")"
            case .not(let term):
                return "NOT " + condition(term)
            case .word, .phrase:
                return "0"
            }
        }
    }
}
