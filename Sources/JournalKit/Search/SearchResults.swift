/// One page of a search: the exact total and the entries of the page, in the page's order.
public struct SearchResults: Sendable, Equatable, Codable {
    /// The query as searched: trimmed of white space (for a regular expression, the pattern).
    public let query: String
    /// The name of the strategy that answered.
    public let strategy: String
    /// Every entry that matches, whatever the page.
    public let total: Int
    /// The page asked for.
    public let page: PageRequest
    /// The entries of the page, in the page's order.
    public let entries: [Entry]
    /// Each entry's relevance (its BM25 score, see <doc:SearchSemantics>) for a page in order of
    /// relevance; nil otherwise.
    public let scores: [Double]?
    /// When the search index was behind the entries as it answered, how far: the total and the
    /// page are exact for the journal before the entries written since. Nil when it was current.
    public let indexing: IndexingProgress?
}
