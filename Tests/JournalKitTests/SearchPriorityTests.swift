import Foundation
import Testing

@testable import JournalKit

/// The watcher an import runs to give way to searches; what it does to an import's threads is
/// tested on the `journal` binary (`JournalCLITests/SearchPriorityTests`).
@Suite struct SearchPriorityTests {
    @Test func aThreadsCPUIsOneItMayRunOn() throws {
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        let thread = try #require(Int32(link.split(separator: "/").last ?? ""))
        let cpus = try #require(CPUSet.ofCallingThread())
        let cpu = try #require(SearchPriority.cpu(ofThread: thread))
        #expect(cpus.contains(cpu))
        #expect(!cpus.removing(cpu).contains(cpu))
        #expect(cpus.removing(cpu).count == cpus.count - 1)
        #expect(SearchPriority.cpu(ofThread: Int32.max) == nil, "no such thread")
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
