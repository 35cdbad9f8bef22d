import JournalText

/// `contains[n]`: the canonical query in the canonical text stored beside every entry when it
/// was written: the `[cd]` answer with a plain comparison and no folding at query time.
struct StoredCanonicalStrategy: StrategyImplementation {
    let id = StrategyID.containsN
    let family = SearchFamily.substring
    /// It finds what `contains[cd]` finds.
    let equivalence = ContainsStrategy(fold: .cd).equivalence
    let summary = "substring of the canonical text stored at write time: a plain comparison"

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try query.text.map { text throws(JournalError) in try substringNeedle(text, fold: Fold.canonical) }
    }

    let structure = SearchStructure.canonicalColumn

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        let (total, numbers) = try stores.main.newestFirst(
            matching: .canonical(substringNeedle(plan.needle ?? "", fold: Fold.canonical)),
            restriction: plan.restriction, page: page,
            cancellation: stores.cancellation)
        return StrategyAnswer(total: total, numbers: numbers)
    }
}
