import JournalText

/// `contains`, `contains[c]`, `contains[d]`, `contains[cd]`: the query anywhere in the text,
/// by code points; with a fold, both sides folded, the text at query time for every row.
struct ContainsStrategy: FoldedSubstringStrategy {
    var id: StrategyID { .contains(fold) }
    /// Nil for plain `contains`.
    let fold: Fold?

    var summary: String {
        fold.map { "substring, the text folded (\($0.summary)) for every row at query time" }
            ?? "substring of the text as written, by code points"
    }

    var structure: SearchStructure { fold == nil ? .none : .foldedAtQueryTime }

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        let needle = try self.needle(plan)
        let (total, numbers) = try stores.main.newestFirst(
            matching: fold.map { .folded($0, needle) } ?? .written(needle), restriction: plan.restriction, page: page,
            cancellation: stores.cancellation)
        return StrategyAnswer(total: total, numbers: numbers)
    }
}

extension Fold {
    /// What the fold ignores, for descriptions.
    var summary: String {
        switch self {
        case .c: "case"
        case .d: "diacritics"
        case .cd: "case and diacritics"
        }
    }
}
