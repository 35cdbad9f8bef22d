/// The two families of the search semantics: strategies of one family return the same entries.
public enum SearchFamily: String, Sendable {
    /// The needle anywhere in the text (`contains`, `matches` and their folds).
    case substring
    /// Every query word the prefix of some token of the entry (search as you type).
    case wordPrefix = "word-prefix"
}

extension SearchFamily {
    /// Refuses a query this family can't answer (a text the word-prefix syntax can't read, or
    /// with nothing to search for), before any store is opened.
    public func validate(_ query: SearchQuery) throws(JournalError) {
        switch self {
        case .wordPrefix: _ = try query.term()
        case .substring: break
        }
    }
}
