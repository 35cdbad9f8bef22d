import Foundation
import Testing

@testable import JournalKit

/// `journal import` keeps off the CPU a search of the journal runs on, while it runs, and takes
/// it back afterwards; a search that sleeps (a command waiting for its editor) takes no CPU from
/// it. The import reads a pipe the test holds open, so it is under way for as long as the test
/// needs; searches are announced by threads of the test, as a search process announces itself.
@Suite struct ImportGivingWayTests {
    /// Whether every thread of process `pid` may run on `cpu` (`want`), or none may (not `want`),
    /// waited for up to ten seconds.
    private static func threads(of pid: Int32, mayRunOn cpu: Int, _ want: Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if threadsAll(of: pid, mayRunOn: cpu) == want { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Whether every thread of process `pid` may run on `cpu` (true), or none may (false); nil
    /// when some may and some may not, or the threads can't be read.
    private static func threadsAll(of pid: Int32, mayRunOn cpu: Int) -> Bool? {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let sets = threads.compactMap { Int32($0).flatMap(CPUSet.ofThread) }
        guard !sets.isEmpty else { return nil }
        if sets.allSatisfy({ $0.contains(cpu) }) { return true }
        if sets.allSatisfy({ !$0.contains(cpu) }) { return false }
        return nil
    }

    @Test func anImportKeepsOffTheCPUOfASearchWhileItRuns() throws {
        guard let cpus = CPUSet.ofCallingThread(), cpus.count > 1 else { return }
        let cpu = try #require((0..<1024).first { cpus.contains($0) })
        let only = (0..<1024).reduce(cpus) { $1 == cpu ? $0 : $0.removing($1) }
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
        let pid = importer.processIdentifier

        // A search that sleeps takes nothing from the import.
        let announced = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread { [presence] in
            only.apply(toThread: SearchPresence.callingThread)
            presence.during {
                announced.signal()
                release.wait()
            }
            announced.signal()
        }.start()
        announced.wait()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.threadsAll(of: pid, mayRunOn: cpu) == true, "a sleeping search leaves the import every CPU")
        release.signal()
        announced.wait()

        // A search that runs, held on one CPU, keeps the import off it until it ends.
        let stop = ConcurrencyTests.Flag()
        Thread { [presence] in
            only.apply(toThread: SearchPresence.callingThread)
            presence.during {
                announced.signal()
                while !stop.isSet {}
            }
            announced.signal()
        }.start()
        announced.wait()
        #expect(Self.threads(of: pid, mayRunOn: cpu, false), "kept off the running search's CPU")
        stop.set()
        announced.wait()
        #expect(Self.threads(of: pid, mayRunOn: cpu, true), "back on it after the search")

        input.fileHandleForWriting.write(Data(#"{"date": "2024-05-01T08:00:00Z", "text": "after the search"}"#.utf8))
        try input.fileHandleForWriting.close()
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        #expect(try journal.run(["search", "after"]).output.contains("after the search"))
    }
}
