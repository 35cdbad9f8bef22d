import JournalText

/// A substring strategy that folds both sides alike, or not at all (`contains[cd]`,
/// `matches[c]`, plain `matches`): the equivalence with the other strategies of the same fold,
/// the highlighting and the needle all follow from the fold.
protocol FoldedSubstringStrategy: StrategyImplementation {
    /// Nil for the plain variant.
    var fold: Fold? { get }
}

extension FoldedSubstringStrategy {
    var family: SearchFamily { .substring }
    var equivalence: String { SearchFamily.substring.rawValue + modifier }
    var highlighting: MatchHighlighting { .substring(fold) }

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try query.text.map { text throws(JournalError) in
            try substringNeedle(text, fold: { fold?.apply(to: $0) ?? $0 })
        }
    }

    /// The plan's needle folded as this strategy folds; a usage error when nothing is left.
    func needle(_ plan: SearchPlan) throws(JournalError) -> String {
        try substringNeedle(plan.needle ?? "", fold: { fold?.apply(to: $0) ?? $0 })
    }

    private var modifier: String { fold.map { "[\($0.rawValue)]" } ?? "" }
}

extension StrategyImplementation {
    /// `text` folded by `fold`, the needle a substring strategy looks for; a usage error when
    /// nothing is left.
    func substringNeedle(_ text: String, fold: (String) -> String) throws(JournalError) -> String {
        let needle = fold(text)
        guard !needle.isEmpty else { throw .usage("the query \"\(text)\" is empty once folded for \(name)") }
        return needle
    }
}
