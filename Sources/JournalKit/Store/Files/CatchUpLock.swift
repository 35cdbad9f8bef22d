import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says "this process is applying the change history to the search store", so that no other
/// process duplicates that work (or, by racing it, undoes its batches): a writer holds it from
/// just before its commit until its change is applied, and a search that finds it taken goes on
/// with what is indexed. An advisory `flock` on a file beside the search store, which the
/// kernel releases when its process dies.
final class CatchUpLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    private var isHeld = true

    deinit { release() }

    /// Lets go of the lock (also done when the value is released).
    func release() {
        guard isHeld else { return }
        isHeld = false
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The lock, waiting while another process holds it; an error naming the file when that
    /// lasts `timeout` seconds.
    static func acquire(besides searchStore: URL, timeout: Double) throws(JournalError) -> CatchUpLock {
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
    static func tryAcquire(besides searchStore: URL) throws(JournalError) -> CatchUpLock? {
        let url = url(besides: searchStore)
        try DurableFiles.createPrivateFile(at: url)
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .store("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { return nil }
            throw .store("cannot lock \(url.path): \(String(cString: strerror(reason)))")
        }
        return CatchUpLock(descriptor: descriptor)
    }
}
