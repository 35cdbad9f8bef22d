/// One page of a search: the exact total and the entries of the page, newest first.
public struct SearchResults: Sendable, Equatable, Codable {
    public let query: String
    public let strategy: String
    public let total: Int
    public let page: PageRequest
    public let entries: [Entry]
}
