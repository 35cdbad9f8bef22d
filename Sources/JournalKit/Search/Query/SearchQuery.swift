import Foundation
import JournalText

/// A query as every strategy receives it: the text, trimmed of Unicode white space and never
/// empty, and the same text read once by the word-prefix syntax.
///
/// The substring strategies (`contains…`, `matches…`) look for ``text`` as it is. The
/// word-prefix strategies (`token`, `prefix`, `fts5`) answer ``parsed``: phrases in double
/// quotes, `OR`, `-` to leave out, `( )` to group, `#tag`, `is:starred`, `from:`, `to:` and
/// `on:` dates, and `on:this-day`. <doc:SearchSemantics> defines the syntax.
///
/// ```swift
/// let query = try SearchQuery(#"#travel "new yo" -work"#)
/// if case .failure(let problem) = query.parsed { print(problem.message, problem.characters) }
/// ```
public struct SearchQuery: Sendable, Equatable {
    /// The text as typed, trimmed.
    public let text: String
    /// The text read by the word-prefix syntax: the term it asks for, or what is wrong and where.
    public let parsed: Result<QueryTerm, QuerySyntaxError>

    /// Trims `text` and reads it, its dates as of `now` in `timeZone`; an empty query is a usage
    /// error (a query the syntax can't read is not: see ``parsed``). `on:this-day` looks back to
    /// the year of `earliest()`, the journal's earliest entry (nil: to 1970), asked for only when
    /// the query holds that field.
    public init(
        _ text: String, now: Date = Date(), timeZone: TimeZone = .current, earliest: () -> JournalDate? = { nil }
    ) throws(JournalError) {
        let trimmed = text.trimmingWhiteSpace
        guard !trimmed.isEmpty else { throw .usage("the query is empty") }
        self.text = trimmed
        parsed = withoutActuallyEscaping(earliest) { earliest in
            var parser = QueryParser(trimmed, now: now, timeZone: timeZone, earliest: earliest)
            return Result { () throws(QuerySyntaxError) -> QueryTerm in
                guard let term = try parser.parse() else {
                    throw QuerySyntaxError(
                        message: "the query \"\(trimmed)\" has no words to search for (only punctuation, symbols or empty groups)",
                        characters: 0..<trimmed.count)
                }
                return term
            }
        }
    }

    /// The term the word-prefix strategies answer; a query the syntax can't read is a usage
    /// error saying what is wrong.
    public func plan() throws(JournalError) -> QueryTerm {
        switch parsed {
        case .success(let term): return term
        case .failure(let problem): throw problem.usageError
        }
    }
}
