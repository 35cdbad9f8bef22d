import CThreadPlacement
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread started for a closure, for work whose starter joins it (or detaches it, for
/// work that touches nothing but memory: ``BackgroundRelease``). Such a thread runs at the
/// ``ThreadPriority`` it is started with (libdispatch's workers take that of their quality of
/// service), and the closure, with everything it captured, is released before the thread
/// ends, in the thread's ordinary flow rather than in its exit's thread-local destructors
/// (``HandOff`` says why that matters).
enum PosixThread {
    /// Starts a thread that runs `body` at `priority`, with a stack of `stackSize` bytes (the
    /// system's default when nil).
    static func start(
        priority: ThreadPriority, stackSize: Int? = nil, _ body: @escaping () -> Void
    ) throws(JournalError) -> pthread_t {
        let box = Unmanaged.passRetained(
            Body {
                priority.apply()
                body()
            }
        ).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw .store("cannot start a thread: \(String(cString: strerror(created)))")
        }
        return thread
    }

    /// The closure a thread runs; a class, so that the thread's C entry point can take it.
    private final class Body {
        let run: () -> Void

        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
