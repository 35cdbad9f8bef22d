import GRDB

/// `token`: each query word as a range scan on the search store's token index
/// (`text >= 'the' AND text < 'thf'`), documents intersected across words, sorted newest first.
struct TokenStrategy: SearchStrategy {
    let name = "token"
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes as range scans on the token index of the separate search store"

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let words = try query.canonicalWords()
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        for word in words {
            if let upper = PrefixRange.upperBound(of: word) {
                conditions.append("id IN (SELECT p.document FROM token t JOIN posting p ON p.token = t.id WHERE t.text >= ? AND t.text < ?)")
                arguments += [word, upper]
            } else {
                conditions.append("id IN (SELECT p.document FROM token t JOIN posting p ON p.token = t.id WHERE t.text >= ?)")
                arguments.append(word)
            }
        }
        let matching = "FROM document WHERE " + conditions.joined(separator: " AND ")
        return try StoreDatabase.guarded(stores.search.url) {
            try stores.search.pool.read { db in
                let total = try Int.fetchOne(db, sql: "SELECT count(*) \(matching)", arguments: StatementArguments(arguments)) ?? 0
                let uris = try String.fetchAll(
                    db, sql: "SELECT uri \(matching) ORDER BY date DESC, id DESC LIMIT ? OFFSET ?",
                    arguments: StatementArguments(arguments + [page.sqlLimit, page.offset]))
                return StrategyAnswer(total: total, page: uris.compactMap(EntryID.init(uri:)))
            }
        }
    }
}
