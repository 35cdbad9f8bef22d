import GRDB

/// `prefix`: the in-memory prefix table finds the tokens starting with each query word (no
/// index descent, no disk), then, as `token`, their documents, newest first.
struct PrefixStrategy: SearchStrategy {
    let name = "prefix"
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes in the in-memory table keyed by first three code points, then postings"

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let table = try stores.prefixTables.current(from: stores.search)
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        for word in try query.canonicalWords() {
            let ids = table.tokenIDs(withPrefix: word)
            guard !ids.isEmpty else { return StrategyAnswer(total: 0, page: []) }
            conditions.append("id IN (SELECT document FROM posting WHERE token IN (SELECT value FROM json_each(?)))")
            arguments.append("[" + ids.map(String.init).joined(separator: ",") + "]")
        }
        return try WordPrefixSearch.answer(conditions: conditions, arguments: arguments, in: stores, page: page)
    }
}
