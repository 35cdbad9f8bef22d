import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread started for a closure (``PosixThread``) and joined once, by whichever caller
/// asks first: for a helper that its owner stops, or that stops itself, from more than one
/// place (the owner's `deinit` among them).
final class JoinedThread: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: pthread_t?

    /// Starts a thread that runs `body` at `priority`.
    init(priority: ThreadPriority, _ body: @escaping () -> Void) throws(JournalError) {
        thread = try PosixThread.start(priority: priority, body)
    }

    /// Waits for the thread to end; once it has been waited for, returns at once.
    func join() {
        let running = lock.withLock {
            defer { thread = nil }
            return thread
        }
        if let running { pthread_join(running, nil) }
    }
}
