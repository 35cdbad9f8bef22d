/// `fts5`: SQLite FTS5 as a user would query it: the plan in FTS5's own syntax (``FTS5Query``),
/// tags, the star and dates as conditions beside `MATCH`. Where unicode61 splits or folds
/// differently from ICU (Japanese, apostrophes, `ß`) its answers differ from `token`'s; the
/// comparison report counts that.
struct FTS5Strategy: StrategyImplementation {
    let id = StrategyID.fts5
    let family = SearchFamily.wordPrefix
    /// The peer: its tokenizer is not ICU's, so it is meant to agree with nothing.
    var equivalence: String { id.name }
    let summary = "SQLite FTS5 (unicode61 remove_diacritics 2, prefix index): the peer a user would pick"

    let structure = SearchStructure.fts5Index

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        try FTS5Peer.build(in: stores.main, progress: stores.progress)
        let (total, numbers) = try FTS5Peer.newestFirst(
            meeting: plan.condition, page: page, in: stores.main, cancellation: stores.cancellation)
        return StrategyAnswer(total: total, numbers: numbers)
    }
}
