/// The two families of the search semantics: strategies of one family return the same entries.
public enum SearchFamily: String, Sendable {
    /// The needle anywhere in the text (`contains`, `matches` and their folds).
    case substring
    /// Every query word the prefix of some token of the entry (search as you type).
    case wordPrefix = "word-prefix"
}

extension SearchFamily {
    /// Refuses a query this family can't answer (a word-prefix query with no words), before
    /// any store is opened.
    public func validate(_ query: SearchQuery) throws(JournalError) {
        switch self {
        case .wordPrefix: _ = try query.canonicalWords()
        case .substring: break
        }
    }
}

/// What a strategy found: the exact total, and the requested page as entry identifiers,
/// newest first. The journal resolves the page to entries in one query.
public struct StrategyAnswer: Sendable, Equatable {
    public let total: Int
    public let page: [EntryID]
}

/// A way of answering a query, reachable by name from the library and the command line.
public protocol SearchStrategy: Sendable {
    /// The name as the semantics document spells it, e.g. `contains[cd]`.
    var name: String { get }
    var family: SearchFamily { get }
    /// One line for `journal search --strategy list`.
    var summary: String { get }
    /// Answers `query` with the exact total and the requested page, newest first.
    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
}

extension SearchStrategy {
    /// The spelling that needs no quoting in a shell: `contains[cd]` becomes `contains-cd`.
    public var alias: String {
        name.replacingOccurrences(of: "[", with: "-").replacingOccurrences(of: "]", with: "")
    }
}

/// The stores a strategy may read.
public struct SearchContext: Sendable {
    let main: MainStore
    let search: SearchStore
}
