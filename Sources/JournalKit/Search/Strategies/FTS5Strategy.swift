import GRDB
import JournalText

/// `fts5`: SQLite FTS5 as a user would query it: the query's words as typed, each a quoted
/// prefix term `"w"*`, ANDed. Where unicode61 splits or folds differently from ICU (Japanese,
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

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        _ = try query.canonicalWords()
        try FTS5Peer.build(in: stores.main, progress: stores.progress)
        guard let expression = query.fts5Expression else { return StrategyAnswer(total: 0, page: []) }
        let (filter, filterArguments) = stores.filter.sqlCondition(table: "e.")
        return try stores.readMain { db in
            let total =
                try stores.filter.isEmpty
                ? Int.fetchOne(db, sql: "SELECT count(*) FROM entry_fts WHERE entry_fts MATCH ?", arguments: [expression])
                : Int.fetchOne(
                    db, sql: "SELECT count(*) FROM entry_fts f JOIN entry e ON e.n = f.rowid WHERE entry_fts MATCH ? AND \(filter)",
                    arguments: [expression] + filterArguments)
            let numbers = try Int64.fetchAll(
                db,
                sql: """
                    SELECT e.n FROM entry_fts f JOIN entry e ON e.n = f.rowid
                    WHERE entry_fts MATCH ? AND \(filter) ORDER BY e.date DESC, e.n DESC LIMIT ? OFFSET ?
                    """,
                arguments: [expression] + filterArguments + [page.sqlLimit, page.offset])
            return StrategyAnswer(total: total ?? 0, page: numbers.map { EntryID(storeID: stores.main.storeID, number: $0) })
        }
    }
}

extension SearchQuery {
    /// The FTS5 query `fts5` runs: the words as typed, `words(q)`, each a quoted prefix term,
    /// ANDed; nil when there are none.
    public var fts5Expression: String? {
        let words = WordBreaker.uniqueWords(in: text)
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " AND ")
    }
}
