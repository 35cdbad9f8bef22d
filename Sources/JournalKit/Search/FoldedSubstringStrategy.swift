import JournalText

/// A substring strategy named `verb` plus its fold (`contains[cd]`, `matches[c]`, plain
/// `matches`): the name, the equivalence with the other strategies of the same fold, the
/// highlighting and the needle all follow from the fold.
protocol FoldedSubstringStrategy: StrategyImplementation {
    /// `contains` or `matches`.
    var verb: String { get }
    /// Nil for the plain variant.
    var fold: Fold? { get }
}

extension FoldedSubstringStrategy {
    var name: String { verb + modifier }
    var family: SearchFamily { .substring }
    var equivalence: String { "substring" + modifier }
    var highlighting: MatchHighlighting { .substring(fold) }

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try needle(query)
    }

    /// The query folded as this strategy folds; a usage error when nothing is left.
    func needle(_ query: SearchQuery) throws(JournalError) -> String {
        try SubstringSearch.needle(query, fold: { fold?.apply(to: $0) ?? $0 }, strategy: name)
    }

    private var modifier: String { fold.map { "[\($0.rawValue)]" } ?? "" }
}
