import Foundation
import Testing

@testable import JournalKit

/// `journal import` keeps off the CPU a search of the journal runs on, while it runs, and takes
/// it back afterwards. The import reads a pipe the test holds open, so it is under way for as
/// long as the test needs; the search is announced by a thread of the test, as a search process
/// announces itself.
@Suite struct ImportGivingWayTests {
    /// Whether every thread of process `pid` may run on `cpu` (`want`), or none may (not `want`),
    /// waited for up to ten seconds.
    private static func threads(of pid: Int32, mayRunOn cpu: Int, _ want: Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let sets = threads.compactMap { Int32($0).flatMap(CPUSet.ofThread) }
            if !sets.isEmpty, sets.allSatisfy({ $0.contains(cpu) == want }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func anImportKeepsOffTheCPUOfASearchWhileItRuns() throws {
        guard let cpus = CPUSet.ofCallingThread(), cpus.count > 1 else { return }
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let input = Pipe()
        let importer = Process()
        importer.executableURL = JournalProcess.executable
        importer.arguments = ["--store", journal.store.path, "import", "--format=jsonl", "-"]
        importer.standardInput = input
        importer.standardOutput = Pipe()
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        defer { if importer.isRunning { importer.terminate() } }

        // The import creates the file searches announce themselves in once it watches.
        let directory = StoreDirectory(journal.store)
        let url = SearchPresence.url(besides: directory.searchStoreURL)
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: url.path), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let presence = try #require(SearchPresence.announcer(besides: directory.searchStoreURL))
        let announced = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread { [presence] in
            presence.during {
                announced.signal()
                release.wait()
            }
            announced.signal()
        }.start()
        announced.wait()

        // The searching thread waits, so the CPU it last ran on stays the one the import avoids.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        let searcher = try #require(SearchPresence.searcher(in: descriptor))
        let cpu = try #require(SearchPriority.cpu(ofThread: searcher))
        #expect(Self.threads(of: importer.processIdentifier, mayRunOn: cpu, false), "kept off the search's CPU")

        release.signal()
        announced.wait()
        #expect(Self.threads(of: importer.processIdentifier, mayRunOn: cpu, true), "back on it after the search")

        input.fileHandleForWriting.write(Data(#"{"date": "2024-05-01T08:00:00Z", "text": "after the search"}"#.utf8))
        try input.fileHandleForWriting.close()
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        #expect(try journal.run(["search", "after"]).output.contains("after the search"))
    }
}
