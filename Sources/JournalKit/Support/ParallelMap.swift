import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Array where Element: Sendable {
    /// `map` spread over every core: for CPU-bound text analysis of a batch. The calling thread
    /// takes a share; the others run at `priority`.
    func parallelMap<Result: Sendable>(
        priority: ThreadPriority, _ transform: @Sendable (Element) -> Result
    ) -> [Result] {
        guard count > 64 else { return map(transform) }
        let workers = Swift.min(ProcessInfo.processInfo.activeProcessorCount, (count + 63) / 64)
        let input = self
        return Self.concurrentResults(count: count, workers: workers, priority: priority) { transform(input[$0]) }
    }

    /// `transform` applied to one contiguous slice of the array per core, for work whose
    /// per-slice results are merged afterwards. The calling thread takes a slice; the others run
    /// at `priority`.
    func parallelSlices<Result: Sendable>(
        priority: ThreadPriority, _ transform: @Sendable (ArraySlice<Element>) -> Result
    ) -> [Result] {
        let workers = Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, count))
        let size = Swift.max(1, (count + workers - 1) / workers)
        let input = self
        let slices = stride(from: 0, to: Swift.max(count, 1), by: size).map { $0..<Swift.min($0 + size, count) }
        return Self.concurrentResults(count: slices.count, workers: slices.count, priority: priority) {
            transform(input[slices[$0]])
        }
    }

    /// `produce(i)` for every i below `count`, computed by `workers` threads, in order.
    private static func concurrentResults<Result: Sendable>(
        count: Int, workers: Int, priority: ThreadPriority, _ produce: @Sendable (Int) -> Result
    ) -> [Result] {
        let output = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
        output.initialize(repeating: nil)
        defer {
            // Release the slots' values before freeing them: `deallocate` alone would leak them.
            _ = output.deinitialize()
            output.deallocate()
        }
        nonisolated(unsafe) let slots = output
        onThreads(workers, priority: priority) { worker in
            var index = worker
            while index < count {
                slots[index] = produce(index)
                index += workers
            }
        }
        return output.map { $0! }
    }

    /// `work(i)` for every i below `count`: i = 0 on the calling thread, each other on a thread
    /// started for it at `priority` (``PosixThread``) and joined before this returns. Threads of
    /// its own rather than libdispatch's workers, which run at the priority of their quality of
    /// service: an import that gives way to other processes (a nice value) does so with all of
    /// its cores.
    private static func onThreads(_ count: Int, priority: ThreadPriority, _ work: @Sendable (Int) -> Void) {
        withoutActuallyEscaping(work) { work in
            var threads: [pthread_t] = []
            for index in 1..<Swift.max(count, 1) {
                if let thread = try? PosixThread.start(priority: priority, { work(index) }) {
                    threads.append(thread)
                } else {
                    // No thread to be had: the work is done here, after the others.
                    work(index)
                }
            }
            work(0)
            for thread in threads { pthread_join(thread, nil) }
        }
    }
}
