/// `prefix`: a word of up to three code points is a key of the prefix table, whose entries the
/// search store keeps precomputed (one list, however many tokens start with it), or, when no
/// more than one token starts with it, that token's; a longer word finds its tokens in the
/// prefix table (in memory: no index descent, no disk; or mapped from its file: one bucket
/// read), then their entries.
struct PrefixStrategy: StrategyImplementation {
    let id = StrategyID.prefix
    let family = SearchFamily.wordPrefix
    let ranksByRelevance = true
    let summary =
        "word prefixes by the first three code points: precomputed entries per key, or tokens from the in-memory table"

    let structure = SearchStructure.prefixTable

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        try WordPrefixSearch.answer(
            plan, in: stores, page: page,
            lookup: .init(
                postings: { word, db in
                    if word.unicodeScalars.count > 3 {
                        return (
                            .tokens,
                            try stores.prefixTables.tokenIDs(withPrefix: word, in: db, searchStore: stores.search)
                        )
                    }
                    let owner = try SearchStore.shortWordOwner(word, in: db)
                    return owner.map { ($0.owner.segments, [$0.id]) } ?? (.prefixKeys, [])
                },
                tokens: { word, db in
                    word.unicodeScalars.count > 3
                        ? try stores.prefixTables.tokenIDs(withPrefix: word, in: db, searchStore: stores.search)
                        : try TokenRange.ids(startingWith: word, in: db)
                },
                keyPositions: true))
    }
}
