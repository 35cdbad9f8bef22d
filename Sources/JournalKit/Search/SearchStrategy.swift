/// A way of answering a query: one of the rungs of the ladder, chosen by name from the library
/// and the command line. ``SearchStrategies`` lists them all.
///
/// Two strategies of the same ``family`` find the same entries for every query (the `fts5`
/// peer aside); they differ in what they cost. <doc:ChoosingAStrategy> compares them.
public struct SearchStrategy: Sendable, Hashable, CustomStringConvertible {
    package let implementation: any StrategyImplementation

    package init(_ implementation: any StrategyImplementation) { self.implementation = implementation }

    /// Its identity, which code names it by.
    public var id: StrategyID { implementation.id }
    /// The name as the search semantics spell it, such as `contains[cd]`.
    public var name: String { implementation.id.name }
    /// The spelling that needs no quoting in a shell: `contains[cd]` becomes `contains-cd`.
    public var alias: String { name.replacingOccurrences(of: "[", with: "-").replacingOccurrences(of: "]", with: "") }
    /// Which entries it finds: strategies of one family find the same ones.
    public var family: SearchFamily { implementation.family }
    /// One line saying how it finds them and what that costs.
    public var summary: String { implementation.summary }
    /// Strategies with the same equivalence find the same entries for every query, as the
    /// search semantics require; the comparison report checks it.
    public var equivalence: String { implementation.equivalence }
    /// How a result can show where the entry matched.
    public var highlighting: MatchHighlighting { implementation.highlighting }
    /// Whether it ranks by relevance (``SearchOrder/relevance``); asked of another, a page in
    /// that order is a usage error.
    public var ranksByRelevance: Bool { implementation.ranksByRelevance }
    /// The name.
    public var description: String { name }

    /// Refuses a query this strategy can't answer (no words, or nothing left once folded)
    /// before any store is read.
    public func validate(_ query: SearchQuery) throws(JournalError) { try implementation.validate(query) }

    /// What it reads besides the text as written: the structure its speed comes from.
    public var structure: SearchStructure { implementation.structure }

    /// Answers `plan` with the exact total and the requested page, newest first.
    package func search(
        _ plan: SearchPlan, page: PageRequest, in stores: SearchContext
    ) throws(JournalError) -> StrategyAnswer {
        try implementation.search(plan, page: page, in: stores)
    }

    /// Strategies are the same when their identities are.
    public static func == (lhs: SearchStrategy, rhs: SearchStrategy) -> Bool { lhs.id == rhs.id }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
