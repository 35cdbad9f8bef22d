import Foundation
import GRDB
import GRDBSQLite

/// A flag that one thread raises to stop work another thread is doing: a cancelled `Task`
/// raises it for the journal call it awaits. Work checks it between batches, and SQLite checks
/// it while a statement runs (a progress handler), so a scan of a million rows stops within
/// milliseconds rather than at its end.
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

    /// Runs `body` with SQLite interrupting `db`'s statements once the flag is raised (they then
    /// fail with `SQLITE_INTERRUPT`, which the stores report as cancelled).
    package func watching<T>(_ db: Database, _ body: () throws -> T) rethrows -> T {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(
            db.sqliteConnection, 10_000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<Cancellation>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, context)
        defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        return try withExtendedLifetime(self) { try body() }
    }
}
