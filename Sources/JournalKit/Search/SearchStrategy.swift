import Foundation
import GRDB

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
    /// Strategies with the same equivalence return the same entries for every query (the
    /// semantics say so); the comparison report checks it.
    var equivalence: String { get }
    /// How output can show where an entry matched.
    var highlighting: MatchHighlighting { get }
    /// Refuses a query this strategy can't answer (no words, or nothing left once folded),
    /// before any store is opened.
    func validate(_ query: SearchQuery) throws(JournalError)
    /// Answers `query` with the exact total and the requested page, newest first.
    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    /// Describes the structure the strategy needs, its size, and (with `rebuild`) how long
    /// building it takes, by building it again; builds it when it is missing either way.
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure
}

extension SearchStrategy {
    public func validate(_ query: SearchQuery) throws(JournalError) {
        try family.validate(query)
    }

    public var equivalence: String { family.rawValue }

    public var highlighting: MatchHighlighting {
        family == .wordPrefix ? .wordPrefix : .substring(.cd)
    }

    public func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        .none
    }

    /// The spelling that needs no quoting in a shell: `contains[cd]` becomes `contains-cd`.
    public var alias: String {
        name.replacingOccurrences(of: "[", with: "-").replacingOccurrences(of: "]", with: "")
    }
}

/// What a strategy may read: the two stores, the in-memory prefix table, where to report
/// progress when a strategy has to build its structure first, and the flag that stops it.
public struct SearchContext: Sendable {
    package let main: MainStore
    package let search: SearchStore
    package let prefixTables: PrefixTableCache
    package let progress: ProgressHandler?
    package let cancellation: Cancellation?

    /// One read transaction on the main store, interrupted when the search is cancelled.
    package func readMain<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try Self.read(main.pool, url: main.url, cancellation, body)
    }

    /// One read transaction on the search store, interrupted when the search is cancelled.
    package func readSearch<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try Self.read(search.pool, url: search.url, cancellation, body)
    }

    private static func read<T>(
        _ pool: DatabasePool, url: URL, _ cancellation: Cancellation?, _ body: (Database) throws -> T
    ) throws(JournalError) -> T {
        try cancellation?.check()
        return try StoreDatabase.guarded(url) {
            try pool.read { db in
                guard let cancellation else { return try body(db) }
                return try cancellation.watching(db) { try body(db) }
            }
        }
    }
}
