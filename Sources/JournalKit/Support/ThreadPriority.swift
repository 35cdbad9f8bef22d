import CThreadPlacement

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The priority a thread this library starts runs at, named where it is started and set by the
/// thread itself as it begins: relative to the process's priority (its main thread's `nice`),
/// never to that of the thread that started it, so that a stage started by a stage that runs
/// behind does not fall further behind. Which thread runs at which is the import's thread map
/// (`ImportThread`, in `Indexing/`).
///
/// Linux keeps `nice` per thread; elsewhere this sets nothing. A thread may not raise its own
/// priority without privilege: one started by a thread that runs behind, asked to run at the
/// process's, keeps the lower one.
enum ThreadPriority: Sendable {
    /// The process's own: for a thread that others wait for.
    case process
    /// Five steps of `nice` below the process's (at most 19): for work whose result is wanted
    /// later than that of the threads it runs beside. With more busy threads than cores, the
    /// scheduler then gives the core to the thread others wait for, instead of leaving it ready
    /// to run while helpers hold every core. Not for work that frees memory
    /// (``BackgroundRelease``): freed later, it would raise a large import's peak.
    case behind

    /// Sets the calling thread's priority to this one.
    func apply() {
        #if os(Linux)
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            errno = 0
            // With PRIO_PROCESS, Linux takes a thread id: the process's id names its main thread.
            let base = getpriority(which, id_t(getpid()))
            guard errno == 0 else { return }
            let wanted = self == .process ? base : min(base + 5, 19)
            setpriority(which, id_t(thread_placement_current_tid()), wanted)
        #endif
    }
}
