import CThreadPlacement
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread started for a closure, for work whose starter joins it (or detaches it, for
/// work that touches nothing but memory: ``BackgroundRelease``). Such a thread
/// inherits its starter's priority (libdispatch's workers take that of their quality of
/// service), and the closure, with everything it captured, is released before the thread
/// ends, in the thread's ordinary flow rather than in its exit's thread-local destructors
/// (``HandOff`` says why that matters).
enum PosixThread {
    /// Starts a thread that runs `body`, with a stack of `stackSize` bytes (the system's
    /// default when nil).
    static func start(stackSize: Int? = nil, _ body: @escaping () -> Void) throws(JournalError) -> pthread_t {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
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

    /// Lowers the calling thread's priority for the rest of its life, five steps of `nice`
    /// below what it had (at most 19): for work whose result is wanted later than that of the
    /// threads it runs beside. With more busy threads than cores, the scheduler then gives the
    /// core to the thread others wait for, instead of leaving it ready to run while helpers
    /// hold both cores. Not for work that frees memory (``BackgroundRelease``): freed later, it
    /// raises a large import's peak. Linux keeps `nice`
    /// per thread, so the starter and the other threads keep theirs, and threads this one starts
    /// inherit its value; elsewhere this does nothing.
    static func giveWay() {
        #if os(Linux)
            let thread = id_t(thread_placement_current_tid())
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            errno = 0
            let current = getpriority(which, thread)
            guard errno == 0 else { return }
            setpriority(which, thread, min(current + 5, 19))
        #endif
    }

    /// The closure a thread runs; a class, so that the thread's C entry point can take it.
    private final class Body {
        let run: () -> Void

        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
