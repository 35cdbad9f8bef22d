import Foundation

/// Says "this process is importing into the journal", so that a pending import
/// (``PendingImport``) whose process is alive is told from one whose process died: the first
/// is left alone, the second may be resumed or abandoned. A ``FileLock`` on a file beside the
/// main store, held for the whole of an import.
enum ImportLock {
    /// The lock file of the main store at `mainStore`.
    static func url(besides mainStore: URL) -> URL {
        mainStore.deletingLastPathComponent().appendingPathComponent(mainStore.lastPathComponent + "-import")
    }

    /// The lock, waiting while another import holds it, as a writer waits for SQLite's write
    /// lock; an error saying so when that lasts `timeout` seconds.
    static func acquire(besides mainStore: URL, timeout: Double) throws(JournalError) -> FileLock {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            if let lock = try FileLock.tryAcquire(at: url(besides: mainStore)) { return lock }
            guard ContinuousClock.now < deadline else {
                throw .importPending(
                    "another import into this journal has been under way for over \(Int(timeout)) s: try again when it is done"
                )
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Whether a process is importing into the main store at `mainStore`.
    static func isHeld(besides mainStore: URL) -> Bool {
        FileLock.isHeld(at: url(besides: mainStore))
    }
}
