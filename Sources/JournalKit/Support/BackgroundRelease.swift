import CProcessMemory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Frees what a stage of work is done with on a thread of its own, so that the thread doing
/// the work goes on at once: the last batch of an import, with the ids and last segments the
/// writer kept (two heap blocks for each new token's last segment alone), is many small blocks
/// to free before the writer could save the prefix table.
///
/// Only for values that hold memory and nothing else (arrays, dictionaries, strings): a value
/// holding a connection, a file or a dispatch queue is released where it was used, in the
/// ordinary flow of a thread that is joined (``HandOff`` says why).
enum BackgroundRelease {
    /// Releases `value` on a new detached thread, then hands the memory it freed back to the
    /// system. When no thread can be started, releases it here.
    static func release<Value>(_ value: consuming Value) {
        let box = Box<Value>(value)
        // At the process's priority: freed later, the memory would raise a large import's peak.
        guard let thread = try? PosixThread.start(priority: .process, { box.empty() }) else {
            box.empty()
            return
        }
        pthread_detach(thread)
    }

    private final class Box<Value>: @unchecked Sendable {
        private var value: Value?

        init(_ value: consuming Value) { self.value = value }

        func empty() {
            value = nil
            process_memory_release_free()
        }
    }
}
