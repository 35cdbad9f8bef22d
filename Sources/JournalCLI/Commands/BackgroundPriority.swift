#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long writes (an import) give way to other work on the machine: searches in other processes
/// come first, and the import takes what CPU time they leave. The calling
/// thread's nice value is raised to ``niceness``, which every thread it starts afterwards
/// inherits; so this is called before the work starts any. Not the idle policy (`SCHED_IDLE`):
/// on a machine kept busy (a build, a test suite) that would all but stop the import.
enum BackgroundPriority {
    /// Ten: the kernel's weights then give the import about a tenth of a core against one busy
    /// process of the default priority.
    static let niceness: Int32 = 10

    static func enter() {
        #if os(Linux)
            // On Linux, PRIO_PROCESS with 0 names the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #else
            _ = setpriority(PRIO_PROCESS, 0, niceness)
        #endif
    }
}
