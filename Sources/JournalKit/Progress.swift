/// Where a long operation is, for a progress bar.
public struct JournalProgress: Sendable, Equatable, Codable {
    /// The step under way.
    public enum Phase: String, Sendable, Codable {
        /// Reading and writing entries into the main store; `done`/`total` count bytes of input.
        case importing
        /// Bringing the search store up to date; `done`/`total` count entries.
        case indexing
        /// Checking every entry against its derived structures; `done`/`total` count entries.
        case verifying
        /// Copying the stores into an encrypted journal or out of one; `done`/`total` count
        /// bytes.
        case converting
        /// Deleting the entries of an import abandoned; `done`/`total` count entries.
        case abandoning
        /// Taking in the files other journals wrote in the folder a journal syncs through;
        /// `done`/`total` count bytes of those files.
        case syncing
    }

    /// The step under way.
    public let phase: Phase
    /// How far it is, in the unit of its phase.
    public let done: Int
    /// The expected end, when it is known.
    public let total: Int?
}

/// Receives progress reports; called on the thread doing the work.
public typealias ProgressHandler = @Sendable (JournalProgress) -> Void
