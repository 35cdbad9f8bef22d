import Foundation
import GRDB

/// Rows inserted into one table ``rowsPerStatement`` to an `INSERT … VALUES (…), (…), …`,
/// each bound through ``DirectBindings``: for the indexer's writes of many small rows that
/// nothing reads before ``flush()`` (a batch's new tokens and their segments, its staged runs,
/// its new documents, the segments a merge of runs gives tokens that had none): a statement
/// runs once for many rows rather than once for each.
///
/// Invariant: every row added is written, in the order added, by the time ``flush()`` returns.
struct MultiRowInsert<Value> {
    /// Rows written by one statement.
    static var rowsPerStatement: Int { 100 }

    private let db: Database
    private let table: String
    private let columns: [String]
    /// `INSERT OR IGNORE`: a row that would break a uniqueness constraint is left out.
    private let ignoringDuplicates: Bool
    private let bind: (borrowing DirectBindings, _ firstParameter: Int32, Value) -> Void
    private var rows: [Value] = []
    /// The statement for ``rowsPerStatement`` rows, once made: its SQL (a few hundred `?`) is
    /// built once, not at every flush.
    private var fullStatement: Statement?

    /// Inserts into `table`'s `columns`; `bind` binds a row's values to the parameters from
    /// `firstParameter` on, one per column, in order. `ignoringDuplicates`: a row the table holds
    /// already (by a unique key) is left out, as `INSERT OR IGNORE` does.
    init(
        into table: String, columns: [String], ignoringDuplicates: Bool = false, in db: Database,
        bind: @escaping (borrowing DirectBindings, _ firstParameter: Int32, Value) -> Void
    ) {
        self.db = db
        self.table = table
        self.columns = columns
        self.ignoringDuplicates = ignoringDuplicates
        self.bind = bind
        rows.reserveCapacity(Self.rowsPerStatement)
    }

    /// Adds a row, writing the rows held once there are ``rowsPerStatement``.
    mutating func add(_ row: Value) throws {
        rows.append(row)
        if rows.count == Self.rowsPerStatement { try flush() }
    }

    /// Writes every row held.
    mutating func flush() throws {
        guard !rows.isEmpty else { return }
        let full = rows.count == Self.rowsPerStatement
        let statement: Statement
        if full, let fullStatement {
            statement = fullStatement
        } else {
            statement = try db.statement(
                sql:
                    "INSERT \(ignoringDuplicates ? "OR IGNORE " : "")INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                    + SQLParameters.rows(rows.count, columns: columns.count),
                reused: full)
            if full { fullStatement = statement }
        }
        let width = Int32(columns.count)
        try statement.bound { bindings in
            for (index, value) in rows.enumerated() { bind(bindings, Int32(index) * width + 1, value) }
        }.execute()
        rows.removeAll(keepingCapacity: true)
    }
}

/// How a writer's caller starts the thread that makes rows beside it
/// (``MultiRowInsert/add(from:added:)``): the caller's thread map decides where threads start
/// and at what priority, not the store.
protocol RowThreads {
    /// Starts `produce` on a thread of its own; it hands each row to its sink, and the rows come
    /// over ``MultiRowInsert/chunkRows`` at a time.
    func start<Value: Sendable>(
        _ produce: @escaping @Sendable (_ sink: (Value) -> Void) -> Void
    ) throws(JournalError) -> HandOff<[Value]>
}

extension MultiRowInsert where Value: Sendable {
    /// Rows a producer hands over at a time: a few statements' worth.
    static var chunkRows: Int { 4 * rowsPerStatement }

    /// Adds the rows `chunks` hands over, in that order, as a producer on a thread of its own
    /// makes them while this one writes those made before (for rows that cost about as much to
    /// make as to write); the caller starts that thread. `added` sees each row here once it is
    /// added. Returns once the producer has ended.
    mutating func add(from chunks: HandOff<[Value]>, added: (Value) throws -> Void = { _ in }) throws {
        defer { chunks.cancel() }
        while let chunk = chunks.take() {
            for row in chunk {
                try add(row)
                try added(row)
            }
        }
    }
}

/// The parameters of a statement made for many values at once.
enum SQLParameters {
    /// `?, ?, …`: `count` of them, for an `IN (…)` list.
    static func list(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `(?, ?), (?, ?), …`: `rows` rows of `columns`, for `VALUES`.
    static func rows(_ rows: Int, columns: Int) -> String {
        Array(repeating: "(" + list(columns) + ")", count: rows).joined(separator: ", ")
    }

    /// `[1,2,3]`: `numbers` as one JSON array, bound to one parameter that `json_each(?)` reads,
    /// so that one cached statement serves any number of them.
    static func jsonArray(_ numbers: some Sequence<Int64>) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }

    /// `IN` the numbers of the array ``jsonArray(_:)`` makes, bound to its one parameter.
    static let inJSONArray = "IN (SELECT value FROM json_each(?))"
}

extension Database {
    /// A statement for `sql`, kept in the connection's cache when `reused` (the full size of a
    /// statement made for many values, which comes back at every batch), made for this once
    /// otherwise (a last, shorter one's size rarely comes back).
    func statement(sql: String, reused: Bool) throws -> Statement {
        try reused ? cachedStatement(sql: sql) : makeStatement(sql: sql)
    }
}
