import Foundation

/// Says "this process is applying the change history to the search store", so that no other
/// process duplicates that work (or, by racing it, undoes its batches): a writer holds it from
/// just before its commit until its change is applied, and a search that finds it taken goes on
/// with what is indexed. A ``FileLock`` on a file beside the search store.
enum CatchUpLock {
    /// The lock, waiting while another process holds it; an error naming the file when that
    /// lasts `timeout` seconds.
    static func acquire(besides searchStore: URL, timeout: Double) throws(JournalError) -> FileLock {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            if let lock = try tryAcquire(besides: searchStore) { return lock }
            guard ContinuousClock.now < deadline else {
                throw .store(
                    "\(url(besides: searchStore).path): another process has been applying changes to the search store for over \(Int(timeout)) s"
                )
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// The lock file of the search store at `searchStore`.
    static func url(besides searchStore: URL) -> URL {
        searchStore.deletingLastPathComponent().appendingPathComponent(searchStore.lastPathComponent + "-catchup")
    }

    /// The lock, or nil when another process holds it; released when the value is.
    static func tryAcquire(besides searchStore: URL) throws(JournalError) -> FileLock? {
        try FileLock.tryAcquire(at: url(besides: searchStore))
    }

    /// Whether a process holds the lock now: one is applying changes to the search store.
    static func isHeld(besides searchStore: URL) -> Bool {
        FileLock.isHeld(at: url(besides: searchStore))
    }
}
