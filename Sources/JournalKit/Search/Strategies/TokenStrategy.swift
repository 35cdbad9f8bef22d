/// `token`: each query word as a range scan on the search store's token index
/// (`text >= 'the' AND text < 'thf'`), documents intersected across words, newest first.
struct TokenStrategy: StrategyImplementation {
    let id = StrategyID.token
    let family = SearchFamily.wordPrefix
    let ranksByRelevance = true
    let summary = "word prefixes as range scans on the token index of the separate search store"

    let structure = SearchStructure.searchStore

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        try WordPrefixSearch.answer(
            plan, in: stores, page: page,
            lookup: .init(
                postings: { word, db in (.tokens, try TokenRange.ids(startingWith: word, in: db)) },
                tokens: { word, db in try TokenRange.ids(startingWith: word, in: db) }))
    }
}
