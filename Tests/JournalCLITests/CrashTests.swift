import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `journal import` killed with SIGKILL at several moments: the import is wholly there or
/// wholly absent, nothing else is lost, and the next command's catch-up leaves the stores
/// agreeing (`journal verify`).
@Suite struct CrashTests {
    @Test func anImportKilledAnywhereIsWhollyThereOrWhollyAbsent() throws {
        let generator = JournalProcess()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("journal-kill-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: input) }
        let generated = try generator.run(["generate", "--entries", "12000", "--seed", "9", "-o", input.path], useStore: false)
        #expect(generated.status == 0)

        var outcomes: [Int] = []
        for delay in [0.1, 0.4, 1.0, 3.0] {
            let journal = JournalProcess()
            defer { journal.removeStore() }
            for index in 1...3 { #expect(try journal.run(["add", "kept entry \(index)"]).status == 0) }
            let importer = try journal.start(["import", input.path])
            Thread.sleep(forTimeInterval: delay)
            kill(importer.processIdentifier, SIGKILL)
            importer.waitUntilExit()

            let verified = try journal.run(["verify"])
            #expect(verified.status == 0, "killed after \(delay) s: \(verified.output)\(verified.error)")
            let entries = try #require(try journal.run(["stats", "--json"]).json()["entries"] as? Int)
            #expect(entries == 3 || entries == 12_003, "killed after \(delay) s: \(entries) entries")
            #expect(try journal.run(["search", "kept", "--json"]).json()["total"] as? Int == 3)
            outcomes.append(entries)
        }
        // Which moments fell before and after the commit depends on the machine: reported, not asserted.
        print("entries after each kill (3: the import was absent, 12,003: wholly there): \(outcomes)")
    }
}
