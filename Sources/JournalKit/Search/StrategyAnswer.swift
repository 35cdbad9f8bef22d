/// What a strategy found: the exact total, and the requested page as entry numbers, in the
/// page's order. Numbers stay numbers until the journal reads the page's entries (which carry
/// their identifiers) in one query.
package struct StrategyAnswer: Sendable, Equatable {
    /// Every entry that matches, whatever the page.
    package let total: Int
    /// The page's entry numbers, in the page's order.
    package let numbers: [Int64]
    /// Each number's relevance, when the page is in order of relevance.
    package let scores: [Double]?
    /// How far the search store had applied the entries' history when it answered, for an
    /// answer from the search store (nil for one from the main store, which is always current).
    var indexed: SearchStore.Position?
    /// Whether the page came before its count (``SearchContext/totalMayFollow``): `total` then
    /// counts only the entries up to the page's end, and the exact total takes the search made
    /// again without.
    package var totalFollows = false

    package init(total: Int, numbers: [Int64], scores: [Double]? = nil) {
        self.total = total
        self.numbers = numbers
        self.scores = scores
    }

    /// Nothing found.
    package static let none = StrategyAnswer(total: 0, numbers: [])
}
