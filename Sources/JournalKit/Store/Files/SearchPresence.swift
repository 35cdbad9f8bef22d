import CThreadPlacement
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says "this thread is searching the journal now", so that an import in another process keeps
/// off the CPU the search runs on (``SearchPriority``), and finds the thread of a search under way.
///
/// Invariant: the file `search.sqlite-searching` beside the search store is empty, and a thread
/// that searches holds a shared lock on the one byte at the offset of its thread id, nothing
/// else. The locks are open file description locks (Linux's `F_OFD_SETLK`): the kernel's, gone
/// when their holder closes the file or dies, so a search that crashed announces nothing, and
/// seen by any other descriptor of the file, in this process too.
///
/// A search only opens the file; the import that watches it creates it. Announcing never fails
/// a search: with no such file, or none that can be opened or locked (another system, a file
/// system without these locks), nothing is announced and the search runs as it would.
final class SearchPresence: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    /// How many searches each announcing thread has under way (a search may run another).
    private var depth: [Int32: Int] = [:]

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// The file of the search store at `searchStore`.
    static func url(besides searchStore: URL) -> URL {
        searchStore.deletingLastPathComponent().appendingPathComponent(searchStore.lastPathComponent + "-searching")
    }

    /// Announces searches of the journal whose search store is at `searchStore`, or nil when no
    /// import watches it (no file) or its file can't be opened.
    static func announcer(besides searchStore: URL) -> SearchPresence? {
        let descriptor = open(url(besides: searchStore).path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? SearchPresence(descriptor: descriptor) : nil
    }

    /// Runs `body` announced as a search of the calling thread.
    func during<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        begin()
        defer { end() }
        return try body()
    }

    /// The kernel's id of the calling thread: its byte in the file.
    static var callingThread: Int32 { thread_placement_current_tid() }

    /// Announces a search of the calling thread until ``end()`` is called on it.
    func begin() {
        let thread = Self.callingThread
        lock.withLock {
            if depth[thread, default: 0] == 0 { Self.lockByte(of: thread, descriptor: descriptor, type: F_RDLCK) }
            depth[thread, default: 0] += 1
        }
    }

    /// Ends the calling thread's search announced by ``begin()``.
    func end() {
        let thread = Self.callingThread
        lock.withLock {
            guard let count = depth[thread] else { return }
            if count > 1 {
                depth[thread] = count - 1
            } else {
                depth[thread] = nil
                Self.lockByte(of: thread, descriptor: descriptor, type: F_UNLCK)
            }
        }
    }

    /// The thread id of a search under way, announced through `descriptor` (the file, opened
    /// by the caller), or nil when none is. With several, any one of them.
    static func searcher(in descriptor: Int32) -> Int32? {
        var region = flock()
        region.l_type = Int16(F_WRLCK)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = 0
        region.l_len = 0
        guard fcntl(descriptor, ofdGetLock, &region) == 0, region.l_type != Int16(F_UNLCK) else { return nil }
        return Int32(exactly: region.l_start)
    }

    /// Takes (`F_RDLCK`) or lets go of (`F_UNLCK`) the byte of `thread`, not waiting; a lock not
    /// granted is left ungranted.
    private static func lockByte(of thread: Int32, descriptor: Int32, type: Int32) {
        var region = flock()
        region.l_type = Int16(type)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = off_t(thread)
        region.l_len = 1
        _ = fcntl(descriptor, ofdSetLock, &region)
    }

    /// `F_OFD_GETLK` and `F_OFD_SETLK` (Linux 3.15), which Swift's Glibc module leaves out.
    private static let ofdGetLock: Int32 = 36
    private static let ofdSetLock: Int32 = 37
}
