/// The order a search's results come in.
public enum SearchOrder: String, Sendable, Equatable, Codable, CaseIterable {
    /// Newest first, by date and then by entry number: the default.
    case newest
    /// Oldest first: newest first, reversed.
    case oldest
    /// Most relevant first: by each entry's Okapi BM25 score over the query's words and phrases
    /// (see <doc:SearchSemantics>), equal scores newest first. The strategies that rank say so
    /// (``SearchStrategy/ranksByRelevance``); asked of another, it is a usage error.
    case relevance
}
