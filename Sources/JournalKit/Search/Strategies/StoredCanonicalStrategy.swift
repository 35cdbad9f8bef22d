import JournalText

/// `contains[n]`: the canonical query in the canonical text stored beside every entry when it
/// was written: the `[cd]` answer with a plain comparison and no folding at query time.
struct StoredCanonicalStrategy: SearchStrategy {
    let name = "contains[n]"
    let family = SearchFamily.substring
    let summary = "substring of the canonical text stored at write time: a plain comparison"

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try needle(query)
    }

    private func needle(_ query: SearchQuery) throws(JournalError) -> String {
        try SubstringSearch.needle(query, fold: Fold.canonical, strategy: name)
    }

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        try SubstringSearch.answer(
            where: "instr(CAST(canonical AS BLOB), ?) > 0", arguments: [SubstringSearch.bytes(needle(query))], in: stores, page: page)
    }
}
