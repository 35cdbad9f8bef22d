import Foundation

/// The most disk a folder's files took while some work ran: their sizes summed every
/// ``interval`` on a thread of its own (a peak shorter than that can be missed; a WAL grows and
/// shrinks over seconds).
enum DiskPeak {
    /// Seconds between two sums of the files' sizes.
    static let interval = 0.05

    /// Runs `body` and returns its result with the largest total size of the files under
    /// `folder` seen meanwhile.
    static func during<T>(_ folder: URL, _ body: () throws -> T) rethrows -> (result: T, peakBytes: Int) {
        let sampler = Sampler(folder)
        let thread = Thread { sampler.run() }
        thread.start()
        let result: T
        do {
            defer { sampler.stop() }
            result = try body()
        }
        return (result, sampler.peak)
    }

    private final class Sampler: @unchecked Sendable {
        private let folder: URL
        private let lock = NSCondition()
        private var stopped = false
        private var finished = false
        private var largest = 0

        init(_ folder: URL) { self.folder = folder }

        var peak: Int { lock.withLock { largest } }

        func run() {
            while true {
                let bytes = Self.bytes(under: folder)
                lock.withLock { largest = max(largest, bytes) }
                let done = lock.withLock {
                    if !stopped { _ = lock.wait(until: Date(timeIntervalSinceNow: DiskPeak.interval)) }
                    return stopped
                }
                if done { break }
            }
            lock.withLock {
                finished = true
                lock.broadcast()
            }
        }

        /// Stops sampling, after one last sample, and waits for it.
        func stop() {
            lock.withLock {
                stopped = true
                lock.broadcast()
                while !finished { lock.wait() }
            }
        }

        static func bytes(under folder: URL) -> Int {
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
            var total = 0
            for case let name as String in files {
                var status = stat()
                if lstat(folder.appendingPathComponent(name).path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                    total += Int(status.st_size)
                }
            }
            return total
        }
    }
}
