#if canImport(Glibc)
    import Glibc
#endif

/// Long writes (an import, a reindex) give way to everything else on the machine: searches in
/// other processes keep their speed while the work takes the CPU time they leave. On Linux the
/// calling thread takes the `SCHED_IDLE` policy, which every thread it starts afterwards
/// inherits; so this is called before the work starts any. Elsewhere, and where the system
/// refuses, nothing changes.
enum BackgroundPriority {
    /// Linux's `SCHED_IDLE` (`<linux/sched.h>`), which Glibc's module leaves out (it is
    /// declared for `_GNU_SOURCE` only).
    private static let schedIdle: Int32 = 5

    static func enter() {
        #if os(Linux)
            var parameters = sched_param(sched_priority: 0)
            _ = sched_setscheduler(0, schedIdle, &parameters)
        #endif
    }
}
