import Foundation
import Testing

@testable import JournalKit

/// The watcher an import runs to give way to searches; what it does to an import's threads is
/// tested on the `journal` binary (`JournalCLITests/SearchPriorityTests`).
@Suite struct SearchPriorityTests {
    @Test func aThreadRunsOnACPUItMayRunOnAndOneAsleepWantsNone() throws {
        let thread = SearchPresence.callingThread
        // The kernel's id, as /proc/thread-self (PID/task/TID) names it.
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        #expect(link.split(separator: "/").last.map(String.init) == String(thread))
        let cpus = try #require(CPUSet.ofCallingThread())
        let running = try #require(SearchPriority.state(ofThread: thread))
        #expect(running.wantsCPU)
        #expect(cpus.contains(running.cpu))
        #expect(!cpus.removing(running.cpu).contains(running.cpu))
        #expect(cpus.removing(running.cpu).count == cpus.count - 1)
        #expect(SearchPriority.state(ofThread: Int32.max) == nil, "no such thread")

        let asleep = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var sleeper: Int32?
        Thread {
            sleeper = SearchPresence.callingThread
            asleep.signal()
            release.wait()
        }.start()
        asleep.wait()
        defer { release.signal() }
        let other = try #require(sleeper)
        // It is blocked on the semaphore once the kernel says so.
        let deadline = ContinuousClock.now + .seconds(5)
        while SearchPriority.state(ofThread: other)?.wantsCPU == true, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(SearchPriority.state(ofThread: other)?.wantsCPU == false)
    }

    @Test func watchingCreatesTheFileSearchesAnnounceThemselvesIn() throws {
        let store = try TemporaryJournal()
        let url = SearchPresence.url(besides: store.directory.searchStoreURL)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let cpus = try #require(CPUSet.ofCallingThread())
        let watcher = SearchPriority.start(for: store.directory)
        defer { watcher?.stop() }
        guard cpus.count > 1 else {
            #expect(watcher == nil, "with a single CPU there is nothing to give way with")
            return
        }
        #expect(watcher != nil)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
