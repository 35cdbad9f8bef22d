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
    /// Refuses a query this family can't answer (a word-prefix query the syntax can't read, or
    /// with nothing to search for), before
    /// any store is opened.
    public func validate(_ query: SearchQuery) throws(JournalError) {
        switch self {
        case .wordPrefix: _ = try query.plan()
        case .substring: break
        }
    }
}

/// What a strategy found: the exact total, and the requested page as entry identifiers,
/// newest first. The journal resolves the page to entries in one query.
package struct StrategyAnswer: Sendable, Equatable {
    package let total: Int
    package let page: [EntryID]

    package init(total: Int, page: [EntryID]) {
        self.total = total
        self.page = page
    }
}

/// A way of answering a query: one of the rungs of the ladder, chosen by name from the library
/// and the command line. ``SearchStrategies`` lists them all.
///
/// Two strategies of the same ``family`` find the same entries for every query (the `fts5`
/// peer aside); they differ in what they cost. <doc:ChoosingAStrategy> compares them.
public struct SearchStrategy: Sendable, Hashable, CustomStringConvertible {
    package let implementation: any StrategyImplementation

    package init(_ implementation: any StrategyImplementation) { self.implementation = implementation }

    /// The name as the search semantics spell it, such as `contains[cd]`.
    public var name: String { implementation.name }
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
    /// The name.
    public var description: String { name }

    /// Refuses a query this strategy can't answer (no words, or nothing left once folded)
    /// before any store is read.
    public func validate(_ query: SearchQuery) throws(JournalError) { try implementation.validate(query) }

    /// Describes the structure the strategy needs, its size, and (with `rebuild`) how long
    /// building it takes, by building it again; builds it when it is missing either way.
    package func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        try implementation.measureStructure(in: stores, rebuild: rebuild)
    }

    /// Answers `query` with the exact total and the requested page, newest first.
    package func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        try implementation.search(query, page: page, in: stores)
    }

    /// Strategies are the same when their names are.
    public static func == (lhs: SearchStrategy, rhs: SearchStrategy) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// What each file in `Strategies/` implements; ``SearchStrategies`` wraps each in a
/// ``SearchStrategy``.
package protocol StrategyImplementation: Sendable {
    /// The name as the search semantics spell it, e.g. `contains[cd]`.
    var name: String { get }
    var family: SearchFamily { get }
    /// One line for `journal search --strategy list`.
    var summary: String { get }
    /// Strategies with the same equivalence return the same entries for every query.
    var equivalence: String { get }
    /// How output can show where an entry matched.
    var highlighting: MatchHighlighting { get }
    /// Refuses a query this strategy can't answer, before any store is opened.
    func validate(_ query: SearchQuery) throws(JournalError)
    /// Answers `query` with the exact total and the requested page, newest first.
    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    /// Describes the structure the strategy needs (see ``SearchStrategy/measureStructure(in:rebuild:)``).
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure
}

extension StrategyImplementation {
    package func validate(_ query: SearchQuery) throws(JournalError) {
        try family.validate(query)
    }

    package var equivalence: String { family.rawValue }

    package var highlighting: MatchHighlighting {
        family == .wordPrefix ? .wordPrefix : .substring(.cd)
    }

    package func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        .none
    }
}

/// What a strategy may read: the two stores, the in-memory prefix table, where to report
/// progress when a strategy has to build its structure first, and the flag that stops it.
package struct SearchContext: Sendable {
    package let main: MainStore
    package let search: SearchStore
    package let prefixTables: PrefixTableCache
    /// The documents' date order, when the journal keeps it in memory.
    package let dateOrders: DateOrderCache
    package let progress: ProgressHandler?
    package let cancellation: Cancellation?
    /// The entries a search may return.
    package let filter: EntryFilter

    /// One read transaction on the main store, interrupted when the search is cancelled.
    package func readMain<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try Self.read(main.pool, url: main.url, cancellation, body)
    }

    /// One read transaction on the search store, interrupted when the search is cancelled.
    package func readSearch<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try Self.read(search.pool, url: search.url, cancellation, body)
    }

    private static func read<T>(
        _ pool: StorePool, url: URL, _ cancellation: Cancellation?, _ body: (Database) throws -> T
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
