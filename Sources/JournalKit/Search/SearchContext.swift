import GRDB

/// What a strategy may read: the two stores, the in-memory prefix table and date order, where
/// to report progress when a strategy has to build its structure first, and the flag that
/// stops it.
package struct SearchContext: Sendable {
    package let main: MainStore
    package let search: SearchStore
    package let prefixTables: PrefixTableCache
    /// The documents' date order, when the journal keeps it in memory.
    package let dateOrders: DateOrderCache
    package let progress: ProgressHandler?
    package let cancellation: Cancellation?
    /// Whether the caller takes a page before its total, the total from a second search: a
    /// strategy may then answer a page whose count would take long without counting it
    /// (``StrategyAnswer/totalFollows``). Strategies that can't answer exactly as they always do.
    package var totalMayFollow = false

    /// One read transaction on the main store, interrupted when the search is cancelled.
    package func readMain<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try main.read(cancellation: cancellation, body)
    }

    /// One read transaction on the search store, interrupted when the search is cancelled.
    package func readSearch<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try search.read(cancellation: cancellation, body)
    }
}
