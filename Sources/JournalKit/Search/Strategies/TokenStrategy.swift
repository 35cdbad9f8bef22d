import GRDB

/// `token`: each query word as a range scan on the search store's token index
/// (`text >= 'the' AND text < 'thf'`), documents intersected across words, newest first.
struct TokenStrategy: SearchStrategy {
    let name = "token"
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes as range scans on the token index of the separate search store"

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        for word in try query.canonicalWords() {
            if let upper = PrefixRange.upperBound(of: word) {
                conditions.append("id IN (SELECT p.document FROM token t JOIN posting p ON p.token = t.id WHERE t.text >= ? AND t.text < ?)")
                arguments += [word, upper]
            } else {
                conditions.append("id IN (SELECT p.document FROM token t JOIN posting p ON p.token = t.id WHERE t.text >= ?)")
                arguments.append(word)
            }
        }
        return try WordPrefixSearch.answer(conditions: conditions, arguments: arguments, in: stores, page: page)
    }
}
