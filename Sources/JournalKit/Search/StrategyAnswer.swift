/// What a strategy found: the exact total, and the requested page as entry numbers, newest
/// first. Numbers stay numbers until the journal reads the page's entries (which carry their
/// identifiers) in one query.
package struct StrategyAnswer: Sendable, Equatable {
    /// Every entry that matches, whatever the page.
    package let total: Int
    /// The page's entry numbers, newest first.
    package let numbers: [Int64]

    package init(total: Int, numbers: [Int64]) {
        self.total = total
        self.numbers = numbers
    }

    /// Nothing found.
    package static let none = StrategyAnswer(total: 0, numbers: [])
}
