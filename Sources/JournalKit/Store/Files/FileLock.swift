import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory `flock` on an empty file beside a store, held by one process at a time and
/// released by the kernel when that process dies: what says "a process is doing this now"
/// where a row in a store could outlive its writer (``CatchUpLock``, ``ImportLock``).
final class FileLock {
    private let descriptor: Int32
    private var isHeld = true

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// Lets go of the lock (also done when the value is released).
    func release() {
        guard isHeld else { return }
        isHeld = false
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The lock on the file at `url` (created when missing), or nil when another process holds it.
    static func tryAcquire(at url: URL) throws(JournalError) -> FileLock? {
        try DurableFiles.createPrivateFile(at: url)
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .store("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { return nil }
            throw .store("cannot lock \(url.path): \(String(cString: strerror(reason)))")
        }
        return FileLock(descriptor: descriptor)
    }

    /// Whether a process holds the lock on the file at `url`, asked without creating the file
    /// (a journal that can't be written is asked too): false when it is missing.
    static func isHeld(at url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(descriptor, LOCK_UN)
        return false
    }
}
