import Foundation
import Testing

@testable import JournalKit

/// The journal's lock: one holder at a time (another thread of the process waits as another
/// process would), taken again by its holder, naming its holder to whoever waits, and taken on
/// the folder the path names when a conversion swapped the folder meanwhile.
@Suite(.hangGuard) struct JournalLockTests {
    private func folder() throws -> StoreDirectory {
        let directory = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-lock-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        return directory
    }

    /// When something happened, in the order it happened.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    @Test func anotherThreadWaitsAndIsToldWhoHoldsIt() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let held = try JournalLock.acquire(directory, purpose: "journal import")
        #expect(JournalLock.holder(of: directory)?.purpose == "journal import")
        #expect(JournalLock.holder(of: directory)?.processID == getpid())
        let events = Events()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do {
                let lock = try JournalLock.acquire(directory, purpose: "journal add") { holder in
                    events.add("waiting for \(holder.map { "\($0)" } ?? "another thread")")
                }
                events.add("granted")
                lock.release()
            } catch {
                events.add("failed: \(error)")
            }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.2)
        events.add("released")
        held.release()
        done.wait()
        #expect(events.all == ["waiting for another thread", "released", "granted"], "\(events.all)")
        #expect(JournalLock.holder(of: directory) == nil)
    }

    @Test func itsHolderTakesItAgainAndLetsGoOnTheLastRelease() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let outer = try JournalLock.acquire(directory, purpose: "outer")
        let inner = try JournalLock.acquire(directory, purpose: "inner", timeout: 0)
        #expect(JournalLock.isHeldByCallingThread(directory))
        inner.release()
        #expect(JournalLock.holder(of: directory)?.purpose == "outer")
        outer.release()
        #expect(JournalLock.holder(of: directory) == nil)
        #expect(!JournalLock.isHeldByCallingThread(directory))
    }

    @Test func aWaitThatLastsTooLongNamesTheHolder() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        // Another open file description in this process conflicts as another process would: a
        // lock held through one, outside the lock's own bookkeeping.
        let path = JournalLock.url(of: directory).path
        let other = open(path, O_RDWR | O_CREAT, 0o600)
        defer { close(other) }
        #expect(flock(other, LOCK_EX) == 0)
        _ = "journal rekey\t4242\n".withCString { write(other, $0, strlen($0)) }
        let error = #expect(throws: JournalError.self) {
            try JournalLock.acquire(directory, purpose: "journal add", timeout: 0.1)
        }
        #expect(error?.message.contains("journal rekey (process 4242)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("nothing was done") == true)
    }

    /// A waiter granted the lock of a folder swapped away (as a conversion swaps it) takes the
    /// lock of the folder the path names now.
    @Test func aWaiterTakesTheLockOfTheFolderThePathNamesNow() throws {
        let directory = try folder()
        let swappedAway = directory.url.deletingLastPathComponent().appendingPathComponent(
            "journal-lock-old-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: directory.url)
            try? FileManager.default.removeItem(at: swappedAway)
        }
        let old = open(JournalLock.url(of: directory).path, O_RDWR | O_CREAT, 0o600)
        #expect(flock(old, LOCK_EX) == 0)
        let granted = DispatchSemaphore(value: 0)
        let events = Events()
        Thread {
            do {
                let lock = try JournalLock.acquire(directory, purpose: "journal add")
                events.add("granted")
                granted.signal()
                Thread.sleep(forTimeInterval: 0.3)
                lock.release()
            } catch {
                events.add("failed: \(error)")
                granted.signal()
            }
        }.start()
        Thread.sleep(forTimeInterval: 0.1)
        try FileManager.default.moveItem(at: directory.url, to: swappedAway)
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: false)
        close(old)
        granted.wait()
        #expect(events.all == ["granted"])
        #expect(JournalLock.holder(of: directory)?.purpose == "journal add", "held on the new folder's file")
        #expect(
            JournalLock.holder(of: StoreDirectory(swappedAway)) == nil, "not on the file of the folder swapped away")
    }
}
