/// What each file in `Strategies/` implements; ``SearchStrategies`` wraps each in a
/// ``SearchStrategy``.
///
/// A strategy receives a ``SearchPlan`` made for its family: the query read and judged once,
/// its conditions simplified and in order. It answers every condition of the plan, the
/// restriction included, and returns the exact total and the page's entry numbers.
package protocol StrategyImplementation: Sendable {
    /// Its identity (``StrategyID``), which holds its name.
    var id: StrategyID { get }
    var family: SearchFamily { get }
    /// One line for `journal search --strategy list`.
    var summary: String { get }
    /// Strategies with the same equivalence return the same entries for every query.
    var equivalence: String { get }
    /// How output can show where an entry matched.
    var highlighting: MatchHighlighting { get }
    /// Whether it answers a page in order of relevance (``SearchOrder/relevance``).
    var ranksByRelevance: Bool { get }
    /// Refuses a query this strategy can't answer, before any store is opened.
    func validate(_ query: SearchQuery) throws(JournalError)
    /// Answers `plan` with the exact total and the requested page, newest first.
    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    /// What it reads besides the text as written.
    var structure: SearchStructure { get }
}

extension StrategyImplementation {
    /// The name as the search semantics spell it, e.g. `contains[cd]`.
    package var name: String { id.name }

    package func validate(_ query: SearchQuery) throws(JournalError) {
        try family.validate(query)
    }

    package var equivalence: String { family.rawValue }

    package var ranksByRelevance: Bool { false }

    package var highlighting: MatchHighlighting {
        family == .wordPrefix ? .wordPrefix : .substring(.cd)
    }
}
