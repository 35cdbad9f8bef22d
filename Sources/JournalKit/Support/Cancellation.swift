import Foundation

/// A flag that one thread raises to stop work another thread is doing: a cancelled `Task` raises it
/// for the journal call it awaits. Work checks it between batches, and the stores have SQLite check
/// it while a statement runs (``StoreFile/read(cancellation:_:)``), so a scan of a million rows
/// stops within milliseconds rather than at its end.
package final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    package init() {}

    package func cancel() { lock.withLock { raised = true } }

    package var isCancelled: Bool { lock.withLock { raised } }

    /// Throws ``JournalError/Kind/cancelled`` once the flag is raised.
    package func check() throws(JournalError) {
        if isCancelled { throw .cancelled }
    }
}
