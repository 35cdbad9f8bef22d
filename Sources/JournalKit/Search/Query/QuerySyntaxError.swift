/// What is wrong with a query of the word-prefix syntax, and where, so that a tool can point
/// at it: a date it can't read (`from:someday`), an `is:` it doesn't know, or nothing left to
/// search for.
public struct QuerySyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line saying what is wrong, quoting the part of the query concerned.
    public let message: String
    /// Where in ``SearchQuery/text`` the problem is, in characters from its start.
    public let characters: Range<Int>

    /// The message.
    public var description: String { message }

    /// The same problem as the usage error a search throws.
    public var usageError: JournalError { .usage(message) }
}
