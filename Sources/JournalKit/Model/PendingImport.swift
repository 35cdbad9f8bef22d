import TextReport

/// An import that has written part of its input and not finished: its entries are in the main
/// store, numbered from ``firstEntry``, and no read sees them (no search, count, list or export)
/// until the import is run again with the same input, which goes on where it stopped, or is
/// dropped (``Journal/abandonPendingImport(progress:)``).
///
/// A large import writes its entries in steps, each committed with where the input stands, so
/// that its disk use stays bounded and a kill loses at most a step. While one is pending the
/// journal takes no other write: every entry from ``firstEntry`` on is the import's.
public struct PendingImport: Sendable, Equatable, Codable {
    /// The input, as it was named: a file's path, `-` for standard input, or empty for a
    /// reader the library was handed.
    public let input: String
    /// The number of the first entry written (nil while none is).
    public internal(set) var firstEntry: Int64?
    /// Entries written so far.
    public internal(set) var written: Int
    /// Entries left out so far because the journal held them before the import.
    public internal(set) var alreadyPresent: Int
    /// Entries left out so far because they have no text.
    public internal(set) var empty: Int
    /// Bytes of input read through.
    public internal(set) var bytesRead: Int
    /// The input's size when it was known.
    public let totalBytes: Int?
    /// Where the input stands: how an import run again checks that its input is the same up
    /// to there, and skips it.
    package internal(set) var position: ImportPosition
    /// Whether a process is writing it now; false when the one that was died or was killed.
    public internal(set) var isUnderWay = false

    /// The input as a message names it: its path, "standard input", or "a JSON Lines reader"
    /// (``Journal/importJSONLines(from:keepingDuplicates:progress:)-oms0``).
    public var inputName: String {
        switch input {
        case "-": "standard input"
        case "": "a JSON Lines reader"
        default: input
        }
    }

    /// How much of it is written, as messages say it: "16,317 entries written".
    var writtenPhrase: String {
        "\(Formatting.count(written, "entry", "entries")) written"
    }

    /// The line that refuses what cannot go on while this import is interrupted: `what` happened
    /// or not, and the two ways out.
    func interruptedRefusal(_ what: String) -> String {
        "an import of \(inputName) was interrupted (\(writtenPhrase), not shown): \(what); \(waysOut)"
    }

    /// What is said of an import that stopped on a failure that was not its input's: its steps
    /// stay, pending.
    var stoppedNote: String {
        "the import stopped with \(writtenPhrase), which nothing shows yet; \(waysOut)"
    }

    private var waysOut: String {
        "run the same import again to finish it, or drop it (journal import --abandon)"
    }

    enum CodingKeys: String, CodingKey {
        case input, firstEntry, written, alreadyPresent, empty, bytesRead, totalBytes, position
    }
}

/// How far an import has read its input: `offset` (bytes of JSON Lines, or entries of a
/// document read whole), the lines read, and a SHA-256 digest of the input up to `offset`
/// (of the whole document, for a document).
package struct ImportPosition: Sendable, Equatable, Codable {
    package let offset: Int
    package let line: Int
    package let digest: String

    package init(offset: Int, line: Int, digest: String) {
        self.offset = offset
        self.line = line
        self.digest = digest
    }
}
