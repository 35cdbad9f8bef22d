/// What went wrong, in one line a user can act on.
public struct JournalError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The request itself is wrong: an empty query, an unknown strategy, a bad option.
        case usage
        /// Input data is wrong: a malformed import line, invalid UTF-8, a bad date.
        case invalidInput
        /// No entry has the given identifier.
        case notFound
        /// A store can't be opened, read or written.
        case store
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func usage(_ message: String) -> JournalError { JournalError(.usage, message) }
    static func invalidInput(_ message: String) -> JournalError { JournalError(.invalidInput, message) }
    static func store(_ message: String) -> JournalError { JournalError(.store, message) }
}
