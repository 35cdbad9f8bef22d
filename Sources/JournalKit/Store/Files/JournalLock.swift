import CThreadPlacement
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal's lock: whatever changes a journal's files holds it, one thread of one process
/// at a time, so that two changes never interleave and each finds the journal as the one
/// before left it. Writes, imports, reindexing, a change of passphrase and a conversion
/// (encrypt, decrypt, rekey) take it; searches and every other read never do.
///
/// Invariant: a holder holds an exclusive `flock` on the file `journal.sqlite-lock` in the
/// journal's folder *as the folder's path names it now*: after the lock is granted, the path is
/// checked to still lead to the file locked, so that a waiter that was granted the lock of a
/// folder a conversion swapped away tries again on the new folder's. The file holds one line
/// naming its holder (what it does, its process), for the message of whoever waits. The kernel
/// lets go of the lock when its process dies.
///
/// A thread that holds the lock may take it again (each ``release()`` undoes one
/// ``acquire(_:purpose:timeout:waiting:)``); another thread of the same process waits for it as
/// another process does.
public final class JournalLock: @unchecked Sendable {
    /// Who holds a journal's lock, as it described itself.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        /// What it is doing: the command ("journal import"), or the program's name.
        public let purpose: String
        /// Its process, when it said.
        public let processID: Int32?

        /// "journal import (process 4242)".
        public var description: String { processID.map { "\(purpose) (process \($0))" } ?? purpose }
    }

    private let key: String
    private var isHeld = true

    private init(key: String) { self.key = key }

    deinit { release() }

    /// What a lock taken by the library on its own says its holder is: the program's name.
    static let programName =
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "a program"

    /// The lock of the journal in `directory`, taken as the library takes it for a change its
    /// caller did not lock for: waiting up to ``StoreDatabase/busyTimeout`` for another holder.
    static func forChange(of directory: StoreDirectory) throws(JournalError) -> JournalLock {
        try acquire(directory, purpose: programName, timeout: StoreDatabase.busyTimeout)
    }

    /// The lock file of the journal in `directory`.
    static func url(of directory: StoreDirectory) -> URL {
        directory.url.appendingPathComponent(directory.mainStoreURL.lastPathComponent + "-lock")
    }

    /// Takes the lock of the journal in `directory` (whose folder must exist), waiting while
    /// another process or thread holds it: as long as that lasts when `timeout` is nil, else up
    /// to `timeout` seconds, then a ``JournalError/Kind/store`` error naming the holder.
    /// `waiting` is told once, when the lock is found taken, who holds it (nil when the holder
    /// did not say). `purpose` is what the caller does, for whoever waits for it in turn.
    public static func acquire(
        _ directory: StoreDirectory, purpose: String, timeout: Double? = nil, waiting: ((Holder?) -> Void)? = nil
    ) throws(JournalError) -> JournalLock {
        let url = url(of: directory)
        let key = realpath(directory.url.path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let key else {
            throw .store("cannot lock the journal in \(directory.url.path): \(String(cString: strerror(errno)))")
        }
        let deadline = timeout.map { ContinuousClock.now + .seconds($0) }
        var told = false
        func tell(_ holder: Holder?) {
            guard !told else { return }
            told = true
            waiting?(holder)
        }
        func timedOut(_ holder: Holder?) -> JournalError {
            let who = holder.map { "\($0)" } ?? "another process"
            return .store(
                "the journal in \(directory.url.path) is busy: \(who) has been changing it for over \(Int(timeout ?? 0)) s; nothing was done",
                file: url.path)
        }
        // This process first: another thread of it may hold the lock, which flock would not
        // show (the kernel grants it per open file, and a second open here would wait forever).
        try Threads.enter(key, deadline: deadline) { () throws(JournalError) in
            tell(nil)
            return timedOut(nil)
        }
        if Threads.depth(key) > 1 { return JournalLock(key: key) }
        do {
            let descriptor = try lockFile(at: url, deadline: deadline) { holder throws(JournalError) in
                tell(holder)
                return timedOut(holder)
            }
            let line = "\(purpose)\t\(getpid())\n"
            ftruncate(descriptor, 0)
            _ = line.utf8CString.withUnsafeBufferPointer { pwrite(descriptor, $0.baseAddress, $0.count - 1, 0) }
            Threads.granted(key, descriptor: descriptor)
        } catch {
            Threads.leave(key)
            throw error
        }
        return JournalLock(key: key)
    }

    /// Who holds the lock of the journal in `directory` now, nil when no one does (or the
    /// folder has no lock file yet). Asked without taking it.
    public static func holder(of directory: StoreDirectory) -> Holder? {
        let descriptor = open(url(of: directory).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK else {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return holder(in: descriptor) ?? Holder(purpose: "another process", processID: nil)
    }

    /// Whether the calling thread holds the lock of the journal in `directory`.
    static func isHeldByCallingThread(_ directory: StoreDirectory) -> Bool {
        guard let resolved = realpath(directory.url.path, nil) else { return false }
        defer { free(resolved) }
        return Threads.isHeldByCallingThread(String(cString: resolved))
    }

    /// Lets go of the lock (once for each time it was taken; also done when the value is
    /// released).
    public func release() {
        guard isHeld else { return }
        isHeld = false
        Threads.leave(key)
    }

    /// The lock file at `url` opened and locked, waiting until `deadline` (nil: for as long as
    /// it takes); `busy` makes the error thrown at the deadline, and is first called when the
    /// lock is found taken.
    private static func lockFile(
        at url: URL, deadline: ContinuousClock.Instant?, busy: (Holder?) throws(JournalError) -> JournalError
    ) throws(JournalError) -> Int32 {
        var pause = 0.002
        while true {
            var descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            // A folder that can't be written: its lock file, when there is one, is locked all the same.
            if descriptor < 0, [EACCES, EPERM, EROFS].contains(errno) {
                descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            }
            guard descriptor >= 0 else {
                throw .store(
                    "the journal in \(url.deletingLastPathComponent().path) cannot be changed: cannot open \(url.lastPathComponent): \(String(cString: strerror(errno)))",
                    file: url.path)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // Granted: on the file the path leads to now, or on one a conversion swapped away.
                var locked = stat()
                var named = stat()
                if fstat(descriptor, &locked) == 0, stat(url.path, &named) == 0, locked.st_dev == named.st_dev,
                    locked.st_ino == named.st_ino
                {
                    return descriptor
                }
                close(descriptor)
                continue
            }
            let reason = errno
            guard reason == EWOULDBLOCK else {
                close(descriptor)
                throw .store("cannot lock \(url.path): \(String(cString: strerror(reason)))")
            }
            let holder = holder(in: descriptor)
            close(descriptor)
            let error = try busy(holder)
            if let deadline, ContinuousClock.now >= deadline { throw error }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.05)
        }
    }

    /// The holder named in the lock file open at `descriptor`, nil when it names none.
    private static func holder(in descriptor: Int32) -> Holder? {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let line = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").first ?? ""
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard let purpose = fields.first, !purpose.isEmpty else { return nil }
        return Holder(purpose: String(purpose), processID: fields.count > 1 ? Int32(fields[1]) : nil)
    }

    /// The locks this process holds, by journal folder: which thread holds each, how many
    /// times, and the descriptor of its lock file once granted.
    private enum Threads {
        private struct Hold {
            var thread: Int32
            var depth: Int
            var descriptor: Int32?
        }

        nonisolated(unsafe) private static var holds: [String: Hold] = [:]
        private static let condition = NSCondition()

        /// Marks the lock of `key` as the calling thread's, waiting while another thread of the
        /// process has it; at `deadline`, the error `busy` makes (called first when it waits).
        static func enter(
            _ key: String, deadline: ContinuousClock.Instant?, busy: () throws(JournalError) -> JournalError
        ) throws(JournalError) {
            let thread = thread_placement_current_tid()
            condition.lock()
            defer { condition.unlock() }
            while let hold = holds[key], hold.thread != thread {
                let error = try busy()
                if let deadline {
                    let left = deadline - ContinuousClock.now
                    guard left > .zero else { throw error }
                    let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
                    _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
                } else {
                    condition.wait()
                }
            }
            holds[key, default: Hold(thread: thread, depth: 0)].depth += 1
        }

        /// How many times the calling thread has entered `key`'s lock.
        static func depth(_ key: String) -> Int {
            condition.withLock { holds[key]?.depth ?? 0 }
        }

        static func isHeldByCallingThread(_ key: String) -> Bool {
            let thread = thread_placement_current_tid()
            return condition.withLock { holds[key]?.thread == thread && holds[key]?.descriptor != nil }
        }

        /// Records the lock file locked for `key`.
        static func granted(_ key: String, descriptor: Int32) {
            condition.withLock { holds[key]?.descriptor = descriptor }
        }

        /// Undoes one ``enter(_:deadline:busy:)``; the last lets go of the file's lock.
        static func leave(_ key: String) {
            condition.lock()
            defer { condition.unlock() }
            guard var hold = holds[key] else { return }
            hold.depth -= 1
            guard hold.depth == 0 else {
                holds[key] = hold
                return
            }
            if let descriptor = hold.descriptor {
                ftruncate(descriptor, 0)
                flock(descriptor, LOCK_UN)
                close(descriptor)
            }
            holds[key] = nil
            condition.broadcast()
        }
    }
}
