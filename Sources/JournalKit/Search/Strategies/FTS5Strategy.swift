import GRDB
import JournalText

/// `fts5`: SQLite FTS5 as a user would query it: the parsed query in FTS5's own syntax
/// (``FTS5Query``), tags, fields and filters as conditions beside `MATCH`. Where unicode61 splits or folds differently from ICU (Japanese,
/// apostrophes, `ß`) its answers differ from `token`'s; the comparison report counts that.
struct FTS5Strategy: StrategyImplementation {
    let name = "fts5"
    let family = SearchFamily.wordPrefix
    /// The peer: its tokenizer is not ICU's, so it is meant to agree with nothing.
    let equivalence = "fts5"
    let summary = "SQLite FTS5 (unicode61 remove_diacritics 2, prefix index): the peer a user would pick"

    /// The FTS5 index (its shadow tables; the text stays in the entry table): built when
    /// missing, and (with `rebuild`) rebuilt from every entry to time it.
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        var seconds = try FTS5Peer.build(in: stores.main, progress: stores.progress)
        if rebuild && seconds == nil { seconds = try FTS5Peer.rebuild(in: stores.main) }
        return StrategyStructure(
            description: "FTS5 index in the main store (unicode61 remove_diacritics 2, prefix='1 2 3')",
            bytes: FTS5Peer.sizeBytes(in: stores.main), buildSeconds: seconds,
            note: seconds == nil ? nil : "build: FTS5 indexing every entry's text")
    }

    /// The peer's tables: the FTS5 index over the main store's entries, `e` the entry row.
    static let schema = FTS5Query.Schema(table: FTS5Peer.table, rowid: "e.n", date: "e.date", starred: "e.starred", tags: "tag")

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let fts5 = FTS5Query(try query.plan(), schema: Self.schema)
        try FTS5Peer.build(in: stores.main, progress: stores.progress)
        let (filter, filterArguments) = stores.filter.sqlCondition(table: "e.")
        let source = fts5.match == nil ? "entry e" : "\(FTS5Peer.table) f JOIN entry e ON e.n = f.rowid"
        let matchCondition = fts5.match == nil ? "" : "\(FTS5Peer.table) MATCH ? AND "
        let arguments =
            StatementArguments(fts5.match.map { [$0.databaseValue] } ?? []) + StatementArguments(fts5.arguments)
            + filterArguments
        let conditions = "\(matchCondition)\(fts5.condition) AND \(filter)"
        return try stores.readMain { db in
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(source) WHERE \(conditions)", arguments: arguments)
            let numbers = try Int64.fetchAll(
                db, sql: "SELECT e.n FROM \(source) WHERE \(conditions) ORDER BY e.date DESC, e.n DESC LIMIT ? OFFSET ?",
                arguments: arguments + [page.sqlLimit, page.offset])
            return StrategyAnswer(total: total ?? 0, page: numbers.map { EntryID(storeID: stores.main.storeID, number: $0) })
        }
    }
}
