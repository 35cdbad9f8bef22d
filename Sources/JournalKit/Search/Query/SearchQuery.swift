import Foundation
import JournalText

/// A search request as every strategy receives it, read once: the text as typed (trimmed of
/// Unicode white space), the same text read by the word-prefix syntax, and the filters given
/// beside it as terms of the same kind.
///
/// The substring strategies (`contains…`, `matches…`) look for ``text`` as it is. The
/// word-prefix strategies (`token`, `prefix`, `fts5`) answer ``parsed``: phrases in double
/// quotes, `OR`, `-` to leave out, `( )` to group, `#tag`, `is:starred`, `from:`, `to:` and
/// `on:` dates, and `on:this-day`. <doc:SearchSemantics> defines the syntax. Every strategy
/// keeps to ``filter``.
///
/// ```swift
/// let query = try SearchQuery(#"#travel "new yo" -work"#, filter: EntryFilter(starred: true))
/// if case .failure(let problem) = query.parsed { print(problem.message, problem.characters) }
/// let results = try journal.search(query)
/// ```
public struct SearchQuery: Sendable, Equatable {
    /// The text as typed, trimmed; nil for a request of filters alone (every entry that passes).
    public let text: String?
    /// The text read by the word-prefix syntax: the term it asks for, or what is wrong and where
    /// (`.all([])`, every entry, without a text).
    public let parsed: Result<QueryTerm, QuerySyntaxError>
    /// The terms the filters add, all of which an entry must meet (``EntryFilter/terms``).
    public let filter: [QueryTerm]

    /// Trims `text` and reads it, its dates as of `now` in `timeZone` (nil: the current zone,
    /// looked up only when the query holds a date), beside `filter`; an empty query is a usage
    /// error (a query the syntax can't read is not: see ``parsed``).
    public init(
        _ text: String, filter: EntryFilter = .none, now: Date = Date(), timeZone: TimeZone? = nil
    ) throws(JournalError) {
        let trimmed = text.trimmingWhiteSpace
        guard !trimmed.isEmpty else { throw .usage("the query is empty") }
        self.text = trimmed
        self.filter = filter.terms
        Self.readings?.count()
        var parser = QueryParser(trimmed, now: now, timeZone: timeZone)
        parsed = Result { () throws(QuerySyntaxError) -> QueryTerm in
            guard let term = try parser.parse() else {
                throw QuerySyntaxError(
                    message:
                        "the query \"\(trimmed)\" has no words to search for (only punctuation, symbols or empty groups)",
                    characters: 0..<trimmed.count)
            }
            return term
        }
    }

    /// Counts the query texts read in the task that sets it: for the test that a search reads
    /// its query once, whoever passes it on.
    @TaskLocal package static var readings: Readings?

    /// A count of query texts read.
    package final class Readings: @unchecked Sendable {
        private let lock = NSLock()
        private var read = 0

        package init() {}

        /// How many have been read.
        package var total: Int { lock.withLock { read } }

        fileprivate func count() { lock.withLock { read += 1 } }
    }

    /// The request of `filter` alone: every entry that passes it.
    public init(filter: EntryFilter) {
        text = nil
        parsed = .success(.all([]))
        self.filter = filter.terms
    }

    /// The query as typed so far, within `filter`: a text of only white space asks for the
    /// filter alone (what a search-as-you-type screen shows before the first key).
    public static func typed(
        _ text: String, filter: EntryFilter = .none, now: Date = Date(), timeZone: TimeZone? = nil
    ) -> SearchQuery {
        (try? SearchQuery(text, filter: filter, now: now, timeZone: timeZone)) ?? SearchQuery(filter: filter)
    }

    /// The term the word-prefix strategies answer for the text; a query the syntax can't read is
    /// a usage error saying what is wrong.
    public func term() throws(JournalError) -> QueryTerm {
        switch parsed {
        case .success(let term): return term
        case .failure(let problem): throw problem.usageError
        }
    }

    /// Whether answering it needs the year of the journal's earliest entry: it asks for on this
    /// day, in its text or its filters.
    package var asksOnThisDay: Bool {
        ((try? parsed.get()).map { [$0] } ?? []).contains(where: \.asksOnThisDay)
            || filter.contains(where: \.asksOnThisDay)
    }
}

extension QueryTerm {
    fileprivate var asksOnThisDay: Bool {
        switch self {
        case .onThisDay: true
        case .all(let terms), .any(let terms): terms.contains(where: \.asksOnThisDay)
        case .not(let term): term.asksOnThisDay
        case .word, .phrase, .tag, .exactTag, .starred, .dated: false
        }
    }
}
