/// What a strategy reads besides the entries' text as written: the structure its speed comes
/// from. The benchmark measures each (its bytes, how long building it takes).
public enum SearchStructure: Sendable, Hashable {
    /// Nothing: every row's text is read at query time.
    case none
    /// Nothing stored: every row's text is folded at query time.
    case foldedAtQueryTime
    /// Nothing stored: a pattern compiled per query (every row folded too, when `folded`).
    case compiledPattern(folded: Bool)
    /// The canonical text stored beside each entry when it is written.
    case canonicalColumn
    /// The search store: tokens and postings in a file of their own.
    case searchStore
    /// The prefix table over the search store's tokens, in memory or mapped from its file.
    case prefixTable
    /// SQLite's FTS5 index in the main store, built the first time it is needed.
    case fts5Index
}
