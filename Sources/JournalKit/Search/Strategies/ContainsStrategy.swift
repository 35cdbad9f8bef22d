import JournalText

/// `contains`, `contains[c]`, `contains[d]`, `contains[cd]`: the query anywhere in the text,
/// by code points; with a fold, both sides folded, the text at query time for every row.
struct ContainsStrategy: FoldedSubstringStrategy {
    let verb = "contains"
    /// Nil for plain `contains`.
    let fold: Fold?

    var summary: String {
        fold.map { "substring, the text folded (\($0.summary)) for every row at query time" }
            ?? "substring of the text as written, by code points"
    }

    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        fold == nil ? .none : StrategyStructure(description: "none: every row is folded at query time")
    }

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let needle = SubstringSearch.bytes(try self.needle(query))
        guard let fold else {
            return try SubstringSearch.answer(where: "instr(CAST(text AS BLOB), ?) > 0", arguments: [needle], in: stores, page: page)
        }
        return try SubstringSearch.answer(
            where: "instr(journal_fold(CAST(text AS BLOB), ?), ?) > 0", arguments: [fold.rawValue, needle], in: stores, page: page)
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
