import CThreadPlacement
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// While a search of the journal runs in another process, keeps every thread of this process
/// off the CPU that search runs on: what a long write (`journal import`) does so that searches
/// meanwhile take about as long as on an idle machine.
///
/// An import keeps every core of a small machine busy, and a search process started meanwhile
/// shares a core with one of its threads. A lower priority does not spare it: with the import
/// at nice 19, or every thread of it `SCHED_IDLE`, a search still waits for a thread of the
/// import that runs on its core to give way at the scheduler's next tick.
/// Kept off the search's CPU, the import leaves it that core and goes on with the others.
///
/// Searches announce themselves: a thread searching holds a lock on its own byte of the file
/// `search.sqlite-searching` beside the search store, which this creates (every search of a
/// ``Journal`` does, and a journal opened for ``JournalUse/oneAnswer`` from its opening on, as
/// a search process is). A thread of its own looks every `interval` for a search under way
/// that runs or waits to run (not one asleep, as a command waiting for its editor is); while
/// there is one, and for `hold` after the last (the next search of a loop, or of a query
/// being typed, comes within that), the process may run on every CPU it started with but that
/// search's; then on all of them again. With one CPU, it does nothing.
///
/// Linux only: the CPUs a thread may run on are set through `sched_setaffinity`.
public final class SearchPriority: Sendable {
    private let stopping: Stopping
    private let thread: JoinedThread

    /// How long the process stays off a search's CPU after it last saw the search.
    static let hold = Duration.milliseconds(50)
    /// How often it looks for a search under way.
    static let interval = 0.001

    private init(stopping: Stopping, thread: JoinedThread) {
        self.stopping = stopping
        self.thread = thread
    }

    /// Starts watching for searches of the journal in `directory`: nil when there is nothing
    /// to give way with (a single CPU) or to watch with (the file can't be created, say in a
    /// folder that can't be written).
    public static func start(for directory: StoreDirectory) -> SearchPriority? {
        guard let cpus = CPUSet.ofCallingThread(), cpus.count > 1 else { return nil }
        let url = SearchPresence.url(besides: directory.searchStoreURL)
        guard (try? DurableFiles.createPrivateFile(at: url)) != nil else { return nil }
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let stopping = Stopping()
        do {
            return SearchPriority(
                stopping: stopping,
                thread: try JoinedThread(priority: ImportThread.searchWatch.priority) {
                    watch(descriptor, cpus: cpus, until: stopping)
                })
        } catch {
            close(descriptor)
            return nil
        }
    }

    /// Stops watching and lets the process run on every CPU it started with again; returns
    /// once the watching thread has ended.
    public func stop() {
        stopping.stop()
        thread.join()
    }

    deinit { stop() }

    /// The watching thread's loop, until `stopping` says to stop.
    private static func watch(_ descriptor: Int32, cpus: CPUSet, until stopping: Stopping) {
        defer { close(descriptor) }
        var keptOff: Int?
        var lastSeen = ContinuousClock.now
        while !stopping.wait(interval) {
            var avoid: Int?
            if let searcher = SearchPresence.searcher(in: descriptor), let seen = state(ofThread: searcher),
                seen.wantsCPU, cpus.contains(seen.cpu)
            {
                lastSeen = .now
                avoid = seen.cpu
            } else if keptOff != nil, ContinuousClock.now - lastSeen < hold {
                avoid = keptOff
            }
            if avoid != keptOff {
                placeEveryThread(on: avoid.map { cpus.removing($0) } ?? cpus)
                keptOff = avoid
            }
        }
        if keptOff != nil { placeEveryThread(on: cpus) }
    }

    /// The watching thread's stop signal, apart from the watcher so that the thread does not
    /// keep it alive.
    private final class Stopping: @unchecked Sendable {
        private let condition = NSCondition()
        private var stopped = false

        func stop() {
            condition.withLock {
                stopped = true
                condition.signal()
            }
        }

        /// Waits `seconds`, or less when stopped; whether it was.
        func wait(_ seconds: Double) -> Bool {
            condition.withLock {
                if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
                return stopped
            }
        }
    }

    /// Lets every thread of this process run only on `cpus` (a thread started meanwhile takes
    /// its starter's).
    private static func placeEveryThread(on cpus: CPUSet) {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return }
        for thread in threads.compactMap({ Int32($0) }) { cpus.apply(toThread: thread) }
    }

    /// Whether thread `thread` runs or waits to (state `R`, or `D`, a short wait for the disk),
    /// rather than sleeps (a command waiting for its editor or for an answer at the terminal
    /// holds its announcement all along), and the CPU it last ran on: fields 3 and 39 of
    /// `/proc/TID/stat`. Nil when the thread has ended or can't be read.
    static func state(ofThread thread: Int32) -> (wantsCPU: Bool, cpu: Int)? {
        let descriptor = open("/proc/\(thread)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // The command's name, field 2, is in parentheses and may hold spaces: fields are
        // counted from the last ')', which ends field 2.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 36, let cpu = Int(String(decoding: fields[36], as: UTF8.self)) else { return nil }
        return (fields[0].first == UInt8(ascii: "R") || fields[0].first == UInt8(ascii: "D"), cpu)
    }
}

/// A set of CPUs, as the kernel takes it for a thread's affinity.
struct CPUSet: Equatable {
    private var mask: [UInt8]

    /// The CPUs the calling thread may run on.
    static func ofCallingThread() -> CPUSet? {
        var mask = [UInt8](repeating: 0, count: Int(thread_placement_mask_bytes))
        guard thread_placement_get(0, &mask) == 0 else { return nil }
        return CPUSet(mask: mask)
    }

    /// The CPUs thread `thread` may run on.
    static func ofThread(_ thread: Int32) -> CPUSet? {
        var mask = [UInt8](repeating: 0, count: Int(thread_placement_mask_bytes))
        guard thread_placement_get(thread, &mask) == 0 else { return nil }
        return CPUSet(mask: mask)
    }

    var count: Int { mask.reduce(0) { $0 + $1.nonzeroBitCount } }

    func contains(_ cpu: Int) -> Bool {
        cpu >= 0 && cpu / 8 < mask.count && mask[cpu / 8] & (1 << (cpu % 8)) != 0
    }

    /// These CPUs but `cpu`.
    func removing(_ cpu: Int) -> CPUSet {
        var copy = self
        if contains(cpu) { copy.mask[cpu / 8] &= ~(1 << (cpu % 8)) }
        return copy
    }

    /// Lets thread `thread` run only on these CPUs; a thread that has ended is left alone.
    func apply(toThread thread: Int32) {
        _ = mask.withUnsafeBufferPointer { thread_placement_set(thread, $0.baseAddress) }
    }
}
