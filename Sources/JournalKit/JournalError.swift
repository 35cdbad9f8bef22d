/// What went wrong: a kind a program can act on, the entry, input line or file concerned, and
/// one line a person can read.
///
/// Every throwing API of the library throws this type (typed throws), so a caller can switch
/// on ``kind`` without casting:
///
/// ```swift
/// do {
///     try journal.importJSONLines(from: JSONLinesReader(path: path))
/// } catch where error.kind == .invalidInput {
///     print("line \(error.line ?? 0) is wrong: \(error.message)")
/// }
/// ```
public struct JournalError: Error, CustomStringConvertible, Sendable, Equatable, Codable {
    /// The class of failure, for deciding what to do about it.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The request itself is wrong: an empty query, an unknown strategy, a bad identifier.
        case usage
        /// Input data is wrong: a malformed import line, invalid UTF-8, a bad date, a text
        /// that is empty or too long.
        case invalidInput
        /// No entry has the given identifier.
        case notFound
        /// The folder holds no journal, and the journal was opened without `create`.
        case noJournal
        /// A store can't be opened, read or written: missing, damaged, busy, full, or not
        /// writable.
        case store
        /// The task was cancelled before the work finished; nothing was written.
        case cancelled
        /// The journal is encrypted and no passphrase was given for it.
        case passphraseRequired
        /// The passphrase given does not open the journal.
        case wrongPassphrase
        /// An import is pending (``PendingImport``): under way in another process, or
        /// interrupted and waiting to be run again or abandoned. The journal takes no other
        /// write meanwhile.
        case importPending
        /// What a change was based on changed meanwhile (another process edited the entry
        /// being edited): nothing was written.
        case conflict
    }

    /// The class of failure.
    public let kind: Kind
    /// One line saying what went wrong, for a person.
    public let message: String
    /// The entry concerned, when there is one (``Kind/notFound``).
    public let entry: EntryID?
    /// The 1-based line of the input concerned, when there is one (an import).
    public let line: Int?
    /// The path of the file concerned, when there is one (a store, an input file).
    public let file: String?

    /// An error of `kind` saying `message`, with whatever details apply.
    public init(_ kind: Kind, _ message: String, entry: EntryID? = nil, line: Int? = nil, file: String? = nil) {
        self.kind = kind
        self.message = message
        self.entry = entry
        self.line = line
        self.file = file
    }

    /// The message.
    public var description: String { message }

    /// The same error about input line `line`, its message saying so.
    package func onLine(_ line: Int) -> JournalError {
        JournalError(kind, "\(Self.location(ofLine: line)): \(message)", entry: entry, line: line, file: file)
    }

    /// How a message names input line `line` ("line 12"), the one spelling every format uses.
    package static func location(ofLine line: Int) -> String { "line \(line)" }

    package static func usage(_ message: String) -> JournalError { JournalError(.usage, message) }
    package static func invalidInput(_ message: String, line: Int? = nil, file: String? = nil) -> JournalError {
        JournalError(.invalidInput, message, line: line, file: file)
    }
    package static func store(_ message: String, file: String? = nil) -> JournalError {
        JournalError(.store, message, file: file)
    }
    package static func importPending(_ message: String) -> JournalError { JournalError(.importPending, message) }
    package static let cancelled = JournalError(.cancelled, "cancelled; nothing was written")
}
