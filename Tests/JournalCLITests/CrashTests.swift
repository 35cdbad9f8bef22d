import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `journal import` killed with SIGKILL at several moments: the import is wholly there or
/// wholly absent, nothing else is lost, the next command's catch-up leaves the stores
/// agreeing (`journal verify`), and the same import run again finishes it, adding nothing twice.
@Suite struct CrashTests {
    /// When to kill the importer.
    enum Moment: CustomStringConvertible {
        /// A fixed time after it started.
        case after(Double)
        /// Once the main store's WAL holds this many bytes: in the middle of the import's one
        /// transaction, which can't have committed yet (it writes several times as much).
        case midImport(bytes: Int)
        /// Once the main store's file holds this many bytes: the import committed and its log
        /// was checkpointed into the file, its indexing under way. (The indexing keeps its pages
        /// in the writer's cache until it commits, so the search store's WAL grows only in its
        /// last moments: too short a window to wait for on a busy machine.)
        case midIndexing(storeBytes: Int)

        var description: String {
            switch self {
            case .after(let seconds): "after \(seconds) s"
            case .midImport(let bytes): "in the import's transaction (main WAL ≥ \(bytes) bytes)"
            case .midIndexing(let bytes): "while indexing (main store ≥ \(bytes) bytes)"
            }
        }
    }

    @Test func anImportKilledAnywhereIsWhollyThereOrWhollyAbsent() throws {
        let generator = JournalProcess()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-kill-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: input) }
        let generated = try generator.run(
            ["generate", "--entries", "\(Self.killedImport)", "--seed", "9", "-o", input.path], useStore: false)
        #expect(generated.status == 0)

        let all = Self.killedImport + 3
        var outcomes: [String] = []
        for moment in [Moment.after(0.05), .midImport(bytes: 2 << 20), .midIndexing(storeBytes: 4 << 20)] {
            let journal = JournalProcess()
            defer { journal.removeStore() }
            for index in 1...3 { #expect(try journal.run(["add", "kept entry \(index)"]).status == 0) }
            let importer = try journal.start(["import", input.path])
            let reached = Self.wait(for: moment, store: journal.store, while: importer)
            kill(importer.processIdentifier, SIGKILL)
            importer.waitUntilExit()
            #expect(reached, "the import ended before the moment \(moment)")
            if case .midIndexing = moment {
                // --status says how far indexing got and that it stopped, and leaves it there
                // (the same answer twice); the next search finishes it.
                let status = try journal.run(["import", "--status", "--json"]).json()
                let indexing = try #require(status["indexing"] as? [String: Any], "\(status)")
                #expect(indexing["pending_entries"] as? Int == Self.killedImport)
                #expect(status["indexing_under_way"] as? Bool == false && status["import_under_way"] as? Bool == false)
                let text = try journal.run(["import", "--status"])
                #expect(text.status == 0 && text.output.contains("stopped: the next command"), "\(text.output)")
                let again = try journal.run(["import", "--status", "--json"]).json()
                #expect(
                    (again["indexing"] as? [String: Any])?["indexed_entries"] as? Int == indexing["indexed_entries"]
                        as? Int)
                #expect(try journal.run(["search", "kept", "--json"]).json()["total"] as? Int == 3)
                #expect(try journal.run(["import", "--status", "--json"]).json()["indexing"] is NSNull)
            }

            let verified = try journal.run(["verify"])
            #expect(verified.status == 0, "killed \(moment): \(verified.output)\(verified.error)")
            let entries = try #require(try journal.run(["stats", "--json"]).json()["entries"] as? Int)
            #expect(entries == 3 || entries == all, "killed \(moment): \(entries) entries")
            switch moment {
            case .midImport: #expect(entries == 3, "killed inside its transaction, the import must be absent")
            case .midIndexing: #expect(entries == all, "killed after its commit, the import must be there")
            case .after: break
            }
            #expect(try journal.run(["search", "kept", "--json"]).json()["total"] as? Int == 3)
            // Run again with the same input, the import finishes and adds nothing twice.
            let again = try journal.run(["import", input.path, "--json"]).json()
            #expect(again["imported"] as? Int == all - entries, "run again after a kill \(moment)")
            #expect(again["already_present"] as? Int == entries - 3, "run again after a kill \(moment)")
            #expect(try journal.run(["stats", "--json"]).json()["indexed_entries"] as? Int == all)
            outcomes.append("\(moment): \(entries)")
        }
        print("entries after each kill (3: the import was absent, \(all): wholly there): \(outcomes)")
    }

    /// The entries of the import killed at several moments: 6 MB of input, its transaction
    /// larger than the writer's page cache (8 MB), so that pages spill into the main store's WAL
    /// before it commits (``Moment/midImport(bytes:)``).
    static let killedImport = 6_000

    /// An import of three steps killed after its first: pending, none of it shown, the journal
    /// refusing other writes and other inputs; abandoned, it is gone; killed again and run
    /// again, it goes on where it stopped.
    @Test func anImportKilledBetweenStepsIsPendingUntilRunAgainOrAbandoned() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let input = journal.store.appendingPathExtension("steps.jsonl")
        let other = journal.store.appendingPathExtension("other.jsonl")
        defer { for file in [input, other] { try? FileManager.default.removeItem(at: file) } }
        // 9,000 entries are 9.3 MB of input: steps of 4 MB, 4 MB and the rest.
        #expect(try journal.run(["generate", "--entries", "9000", "--seed", "4", "-o", input.path]).status == 0)
        #expect(try journal.run(["generate", "--entries", "10", "--seed", "5", "-o", other.path]).status == 0)
        for index in 1...3 { #expect(try journal.run(["add", "kept entry \(index)"]).status == 0) }

        let written = try killAfterAStep(importing: input, into: journal)
        #expect(try journal.run(["stats", "--json"]).json()["entries"] as? Int == 3)
        #expect(try journal.run(["search", "kept", "--json"]).json()["total"] as? Int == 3)
        #expect(try journal.run(["list", "--json"]).json()["total"] as? Int == 3)
        let status = try journal.run(["import", "--status", "--json"]).json()
        let pending = try #require(status["pending_import"] as? [String: Any])
        #expect(pending["written"] as? Int == written && pending["under_way"] as? Bool == false)
        #expect(try journal.run(["import", "--status"]).output.contains("interrupted"))
        let refused = try journal.run(["add", "refused"])
        // Both refusals name the count as the CLI's own lines do, grouped.
        #expect(written >= 1_000)
        let writtenPhrase = "\(written / 1_000),\(String(format: "%03d", written % 1_000)) entries written"
        #expect(refused.status == 1 && refused.error.contains("was interrupted (\(writtenPhrase)"), "\(refused.error)")
        let otherInput = try journal.run(["import", other.path])
        #expect(
            otherInput.status == 1
                && otherInput.error.contains("(\(writtenPhrase), not shown): this input is not the same"),
            "\(otherInput.error)")
        #expect(try journal.run(["verify"]).status == 0)

        let abandoned = try journal.run(["import", "--abandon", "--json"]).json()
        #expect((abandoned["abandoned"] as? [String: Any])?["written"] as? Int == written)
        #expect(try journal.run(["import", "--status", "--json"]).json()["pending_import"] is NSNull)
        #expect(try journal.run(["stats", "--json"]).json()["entries"] as? Int == 3)
        #expect(try journal.run(["verify"]).status == 0)

        // Ctrl-C ends it the same way, with a line saying where to look.
        let writtenAgain = try killAfterAStep(importing: input, into: journal, with: SIGINT)
        let again = try journal.run(["import", input.path, "--json"] + Self.stepsOf4MB).json()
        #expect(again["imported"] as? Int == 9_000 && again["resumed"] as? Int == writtenAgain)
        let stats = try journal.run(["stats", "--json"]).json()
        #expect(stats["entries"] as? Int == 9_003 && stats["indexed_entries"] as? Int == 9_003)
        #expect(try journal.run(["verify"]).status == 0)
        #expect(try journal.run(["add", "written after"]).status == 0)
    }

    /// Steps of 4 MB of input instead of 16: the import of steps above has three.
    static let stepsOf4MB = ["--step-bytes", "4000000"]

    /// Starts importing `input`, sends the importer `signal` once a step has committed (the
    /// journal says an import is pending), and returns the entries that step wrote.
    private func killAfterAStep(
        importing input: URL, into journal: JournalProcess, with signal: Int32 = SIGKILL
    ) throws -> Int {
        let importer = try journal.start(["import", input.path] + Self.stepsOf4MB)
        var written: Int?
        while importer.isRunning, written == nil {
            let status = try journal.run(["import", "--status", "--json"]).json()
            written = (status["pending_import"] as? [String: Any])?["written"] as? Int
        }
        kill(importer.processIdentifier, signal)
        importer.waitUntilExit()
        if signal == SIGINT { #expect(importer.terminationStatus == 130) }
        return try #require(written, "the import ended before a step committed")
    }

    /// Waits until `moment` while `process` runs; false when it ended first.
    static func wait(for moment: Moment, store: URL, while process: Process) -> Bool {
        let (file, bytes): (String, Int)
        switch moment {
        case .after(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            return process.isRunning
        case .midImport(let size): (file, bytes) = ("journal.sqlite-wal", size)
        case .midIndexing(let size): (file, bytes) = ("journal.sqlite", size)
        }
        let path = store.appendingPathComponent(file).path
        while process.isRunning {
            var info = stat()
            if stat(path, &info) == 0, Int(info.st_size) >= bytes { return true }
            usleep(1_000)
        }
        return false
    }
}
