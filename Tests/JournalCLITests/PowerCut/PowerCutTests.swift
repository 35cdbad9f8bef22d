import Foundation
import JournalKit
import Testing

/// Simulated power cuts: each write command runs once under the recorder, then the disk it
/// would leave is rebuilt at every sync it made (and after it ended), under every ``PowerLoss``,
/// and reopened as the next command would: `verify` passes, every write the command had
/// reported is there, nothing half-done is visible (an import is all or nothing), the entries
/// it did not touch are as they were, and the word-prefix strategies, the prefix table's file
/// included, find what `contains[n]` finds. Each replay has a folder, log and journal of its
/// own, so the tests run beside each other and beside the other suites.
@Suite struct PowerCutTests {
    /// An entry as a user would check it survived.
    struct Saved: Equatable, CustomStringConvertible {
        let number: Int64
        let text: String
        let date: Int64
        let starred: Bool
        let tags: [String]

        init(_ entry: Entry) {
            (number, text, date, starred, tags) = (
                entry.id.number, entry.text, entry.date.microseconds, entry.starred, entry.tags.map(\.name).sorted()
            )
        }

        var description: String { "p\(number) \"\(text.prefix(40))\"" }
    }

    /// A write command, and what may be found after a cut given what it had printed by then.
    struct Scenario {
        var arguments: [String]
        /// Whether another process keeps the journal open meanwhile (so closing folds nothing back).
        var othersHoldTheJournal = false
        /// Whether the journal's folder is created by the command.
        var createsTheJournal = false
        /// Whether the journal is encrypted (its passphrase in a file outside the recorded folder).
        var encrypted = false
        /// Whether the command, run again on what a cut left, must finish what it had begun (an
        /// import goes on where it stopped, and adds nothing twice).
        var runAgain = false
        /// Whether the command writes the prefix table's file again (and renames it into place).
        var rewritesPrefixTable = false
        /// Words its entries hold that no other entry's word contains.
        var markers: [String]
        /// A problem with `after`, or nil: `before` were the entries, `reported` what the
        /// command had printed before the cut.
        var check: (_ before: [Saved], _ after: [Saved], _ reported: String) -> String?
    }

    /// What a scenario's replay came to.
    struct Outcome {
        var cuts = 0
        var reportedAtCut: Int?
        /// The disks checked: a cut and a loss that leave the same files as another (a sync of one
        /// file changes nothing else) are checked once, for what had been printed.
        var checked = Set<Int>()
        /// The disks checked that held an import pending (written in part, shown in nothing).
        var pending = 0
    }

    @Test(arguments: [false, true]) func anAddSurvivesACutOnceReported(encrypted: Bool) throws {
        let text = "The power went out right after qxadd was written"
        let scenario = Scenario(
            arguments: ["add", text], encrypted: encrypted, markers: ["qxadd"], check: Self.added(text))
        print(try Self.replay(encrypted ? "add, encrypted" : "add", scenario))
    }

    @Test func anAddSurvivesACutWhileAnotherProcessHoldsTheJournal() throws {
        let text = "Written while the full-screen search was open: qxheld"
        print(
            try Self.replay(
                "add, journal held open",
                Scenario(
                    arguments: ["add", text], othersHoldTheJournal: true, markers: ["qxheld"], check: Self.added(text)))
        )
    }

    @Test func aNewJournalsFirstAddSurvivesACut() throws {
        let text = "The first entry of a new journal, qxfirst"
        print(
            try Self.replay(
                "add to a new journal",
                Scenario(
                    arguments: ["add", text], createsTheJournal: true, markers: ["qxfirst"], check: Self.added(text))
            ))
    }

    /// Six hundred entries, each with two words no other has (a number and a `qxw` word), so
    /// that the import also rewrites the prefix table's file (sealed, in an encrypted journal).
    @Test(arguments: [(false, false), (true, false), (false, true)]) func anImportIsAllOrNothing(
        held: Bool, encrypted: Bool
    ) throws {
        let texts = (0..<600).map { "Imported entry \(1_000_000 + $0) qximport qxw\($0)a" }
        let input = try Self.jsonLines(texts)
        defer { try? FileManager.default.removeItem(at: input) }
        let scenario = Scenario(
            arguments: ["import", input.path], othersHoldTheJournal: held, encrypted: encrypted,
            rewritesPrefixTable: true, markers: ["qximport", "qxw599a"], check: Self.imported(texts))
        print(
            try Self.replay(
                (held ? "import, journal held open" : "import") + (encrypted ? ", encrypted" : ""), scenario))
    }

    /// An import of several steps (a step of 4 KB of input here, 16 MB by default): cut
    /// anywhere, none of it is shown until all of it is, and the same import run again on what
    /// the cut left finishes it, each entry once.
    @Test func anImportInStepsGoesOnAfterACut() throws {
        let texts = (0..<400).map { "Imported in steps, entry \($0) qxsteps qxs\($0)b" }
        let input = try Self.jsonLines(texts)
        defer { try? FileManager.default.removeItem(at: input) }
        let scenario = Scenario(
            arguments: ["import", input.path, "--step-bytes", "4096"], runAgain: true, markers: ["qxsteps", "qxs399b"],
            check: Self.imported(texts))
        print(try Self.replay("import in steps", scenario))
    }

    @Test func anEditIsOldOrNewNeverLost() throws {
        let text = "Edited after the cut question: qxedit"
        let scenario = Scenario(
            arguments: ["edit", "p5", "--text", text], markers: ["qxedit"],
            check: { before, after, reported in
                guard after.count == before.count, let edited = after.first(where: { $0.number == 5 }) else {
                    return "p5 is gone"
                }
                guard zip(before, after).allSatisfy({ $0.number == 5 || $0 == $1 }) else {
                    return "another entry changed"
                }
                if edited.text == text { return nil }
                if reported.contains("edited p5") { return "reported edited, but p5 has its old text" }
                return edited == before.first(where: { $0.number == 5 }) ? nil : "p5 is neither old nor new: \(edited)"
            })
        print(try Self.replay("edit", scenario))
    }

    @Test func aDeleteIsDoneOrNotDone() throws {
        let scenario = Scenario(
            arguments: ["delete", "p6"], markers: [],
            check: { before, after, reported in
                let others = before.filter { $0.number != 6 }
                if after == before {
                    return reported.contains("deleted p6") ? "reported deleted, but p6 is there" : nil
                }
                return after == others ? nil : "the entries are neither as before nor without p6"
            })
        print(try Self.replay("delete", scenario))
    }

    /// The rebuild writes the prefix table's file again too.
    @Test func aReindexLosesNothing() throws {
        let scenario = Scenario(
            arguments: ["reindex"], rewritesPrefixTable: true, markers: ["qxbase"],
            check: { before, after, _ in after == before ? nil : "the entries changed" })
        print(try Self.replay("reindex", scenario))
    }

    /// An entry of 1,200 new words: the tokens added pass the prefix table's threshold, so its
    /// file is written again and renamed into place.
    @Test func thePrefixTablesRewriteSurvivesACut() throws {
        let text = "qxprefix " + (0..<1_200).map { "qxp\($0)z" }.joined(separator: " ")
        print(
            try Self.replay(
                "prefix table rewrite",
                Scenario(
                    arguments: ["add", text], rewritesPrefixTable: true, markers: ["qxprefix", "qxp1199z", "qxp7"],
                    check: Self.added(text))
            ))
    }

    // MARK: Expectations

    /// A JSON Lines file of entries with these texts, in the temporary folder.
    static func jsonLines(_ texts: [String]) throws -> URL {
        let lines = try texts.map {
            String(decoding: try JSONSerialization.data(withJSONObject: ["text": $0]), as: UTF8.self)
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "powercut-import-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        return input
    }

    /// Entries with `texts` added after the others, all of them or (unless `imported` was
    /// printed) none; nothing else changed.
    static func imported(_ texts: [String]) -> (_ before: [Saved], _ after: [Saved], _ reported: String) -> String? {
        { before, after, reported in
            let added = after.filter { $0.number > (before.last?.number ?? 0) }
            guard Array(after.prefix(before.count)) == before else {
                return "the entries before the import changed"
            }
            if added.isEmpty {
                return reported.contains("imported") ? "reported imported, but no entry is there" : nil
            }
            return added.map(\.text) == texts ? nil : "\(added.count) of \(texts.count) imported entries are there"
        }
    }

    /// One entry with `text` added after the others, or (when `added` was not yet printed)
    /// perhaps not; nothing else changed.
    static func added(_ text: String) -> (_ before: [Saved], _ after: [Saved], _ reported: String) -> String? {
        { before, after, reported in
            if after == before {
                return reported.contains("added") ? "reported added, but the entry is not there" : nil
            }
            guard after.count == before.count + 1, Array(after.prefix(before.count)) == before else {
                return "the entries changed otherwise: \(after.count) for \(before.count)"
            }
            return after.last?.text == text ? nil : "the new entry's text is not the one added"
        }
    }

    // MARK: Replay

    /// Sets up a journal, records the scenario's command on it, and checks every cut.
    static func replay(_ name: String, _ scenario: Scenario) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("powercut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let passphraseFile = root.deletingLastPathComponent().appendingPathComponent(
            "\(root.lastPathComponent).passphrase")
        defer { try? FileManager.default.removeItem(at: passphraseFile) }
        var environment: [String: String] = [:]
        if scenario.encrypted {
            try Data((passphrase + "\n").utf8).write(to: passphraseFile)
            environment["JOURNAL_PASSPHRASE_FILE"] = passphraseFile.path
            let least = try KeyDerivationCost(passes: 1, memoryBytes: 8192)
            try Journal.create(
                in: StoreDirectory(root.appendingPathComponent("journal")), passphrase: Passphrase(passphrase),
                cost: least
            )
            .close()
        }
        let journal = JournalProcess(store: root.appendingPathComponent("journal"), environment: environment)
        var before: [Saved] = []
        if !scenario.createsTheJournal {
            #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
            #expect(try journal.run(["add", "A base entry with the word qxbase"]).status == 0)
            before = try entries(in: StoreDirectory(journal.store), encrypted: scenario.encrypted)
        }
        let holder =
            scenario.othersHoldTheJournal
            ? try Journal(
                directory: StoreDirectory(journal.store), create: false,
                passphrase: scenario.encrypted ? Passphrase(passphrase) : nil)
            : nil
        defer { try? holder?.close() }

        let initial = try DiskModel(root: root)
        let log = root.deletingLastPathComponent().appendingPathComponent("\(root.lastPathComponent).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let recorder = JournalProcess.executable.deletingLastPathComponent().appendingPathComponent(
            "libPowerCutRecorder.so")
        let run = try journal.run(
            scenario.arguments,
            environment: ["POWERCUT_ROOT": root.path, "POWERCUT_LOG": log.path, "LD_PRELOAD": recorder.path])
        try #require(run.status == 0, "\(name): \(run.error)")
        let calls = try RecordedCall.read(log)
        let prefixTable = StoreDirectory(journal.store).searchStoreURL.path + "-prefix"
        let rewritesPrefixTable = calls.contains { if case .rename(_, prefixTable) = $0 { true } else { false } }
        #expect(rewritesPrefixTable == scenario.rewritesPrefixTable, "\(name): the prefix table's file rewritten?")

        var model = initial
        var outcome = Outcome()
        let cuts = calls.indices.filter { if case .sync = calls[$0] { true } else { false } } + [calls.count]
        var applied = 0
        for cut in cuts {
            while applied < cut {
                try model.apply(calls[applied])
                applied += 1
            }
            let printed: Int
            if cut < calls.count, case .sync(_, let bytes) = calls[cut] {
                printed = bytes
            } else {
                printed = run.output.utf8.count
            }
            let reported = String(decoding: run.output.utf8.prefix(max(0, printed)), as: UTF8.self)
            if outcome.reportedAtCut == nil, !reported.isEmpty { outcome.reportedAtCut = outcome.cuts }
            for loss in PowerLoss.allCases {
                let problem = try check(
                    model, loss, scenario, environment: environment, before: before, reported: reported,
                    skipping: &outcome.checked, pending: &outcome.pending)
                #expect(problem == nil, "\(name), cut \(outcome.cuts) of \(cuts.count) (\(loss)): \(problem ?? "")")
            }
            outcome.cuts += 1
        }
        let differences = try model.differences(fromFilesAt: root)
        #expect(differences.isEmpty, "\(name): the recorder missed changes: \(differences)")
        if scenario.runAgain { #expect(outcome.pending > 0, "\(name): no cut left the import pending") }
        return
            "\(name): \(calls.count) calls, \(cuts.count) cuts × \(PowerLoss.allCases.count) losses, \(outcome.checked.count) distinct disks checked"
            + (scenario.runAgain ? " (\(outcome.pending) with the import pending, each run again)" : "")
            + "; success printed before cut \(outcome.reportedAtCut.map(String.init) ?? "–")"
    }

    /// Rebuilds the disk after a cut with `loss` and checks it; the problem found, or nil.
    static func check(
        _ model: DiskModel, _ loss: PowerLoss, _ scenario: Scenario, environment: [String: String],
        before: [Saved], reported: String, skipping checked: inout Set<Int>, pending: inout Int
    ) throws -> String? {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("powercut-cut-\(UUID().uuidString)")
        try model.materialize(loss, at: copy)
        guard checked.insert(try fingerprint(of: copy, reported: reported)).inserted else {
            try? FileManager.default.removeItem(at: copy)
            return nil
        }
        let problem = try check(
            copy, scenario, environment: environment, before: before, reported: reported, pending: &pending)
        // A failing disk is kept for a person to look at; the message names it.
        if problem != nil { return "\(problem!) (the disk is kept in \(copy.path))" }
        try? FileManager.default.removeItem(at: copy)
        return nil
    }

    /// Opens the journal of the disk at `copy` as the next command would, and runs the command
    /// again on it when the scenario says so; the problem found, or nil.
    static func check(
        _ copy: URL, _ scenario: Scenario, environment: [String: String], before: [Saved], reported: String,
        pending: inout Int
    ) throws -> String? {
        let directory = StoreDirectory(copy.appendingPathComponent("journal"))
        let (problem, wasPending) = try examine(directory, scenario, before: before, reported: reported)
        if wasPending { pending += 1 }
        guard problem == nil, scenario.runAgain else { return problem }
        let again = try JournalProcess(store: directory.url, environment: environment).run(scenario.arguments)
        guard again.status == 0 else { return "run again, it failed: \(again.error)" }
        let (problemAfter, stillPending) = try examine(directory, scenario, before: before, reported: again.output)
        if stillPending { return "run again, it left the import pending" }
        return problemAfter.map { "run again: \($0)" }
    }

    /// Opens the journal in `directory` as the next command would: the problem found, or nil,
    /// and whether an import is pending.
    static func examine(
        _ directory: StoreDirectory, _ scenario: Scenario, before: [Saved], reported: String
    ) throws
        -> (problem: String?, pending: Bool)
    {
        let journal: Journal
        do {
            journal = try Journal(
                directory: directory, create: false, passphrase: scenario.encrypted ? Passphrase(passphrase) : nil,
                use: .oneAnswer)
        } catch  where error.kind == .noJournal && scenario.createsTheJournal {
            return (reported.isEmpty ? nil : "the new journal is gone, though \"\(reported)\" was printed", false)
        } catch {
            return ("the journal does not open: \(error.message)", false)
        }
        defer { try? journal.close() }
        let pending = try journal.pendingImport() != nil
        let verification = try journal.verify()
        guard verification.isConsistent else { return ("verify: \(verification.problems.prefix(3))", pending) }
        if let problem = scenario.check(before, try entries(of: journal), reported) { return (problem, pending) }
        // `the` is a word of many entries, and a substring of more: the two word-prefix
        // strategies must agree on it; on a marker, `contains[n]` must agree too.
        for word in scenario.markers + ["the"] {
            let found = try [StrategyID.prefix, .token, .containsN].map { strategy in
                try numbers(journal.search(word, strategy: SearchStrategies[strategy], page: PageRequest(limit: 0)))
            }
            if found[0] != found[1] {
                return ("prefix finds \(found[0].count) for \(word), token \(found[1].count)", pending)
            }
            if word != "the", found[0] != found[2] {
                return ("prefix finds \(found[0].count) for \(word), contains[n] \(found[2].count)", pending)
            }
        }
        return (nil, pending)
    }

    /// The names and bytes of every file under `folder`, with what had been printed.
    static func fingerprint(of folder: URL, reported: String) throws -> Int {
        var hasher = Hasher()
        hasher.combine(reported)
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []).sorted()
        for path in paths {
            hasher.combine(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path + "/" + path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                hasher.combine(try Data(contentsOf: folder.appendingPathComponent(path)))
            }
        }
        return hasher.finalize()
    }

    /// The passphrase of the encrypted scenarios' journals.
    static let passphrase = "power cut"

    static func entries(in directory: StoreDirectory, encrypted: Bool) throws -> [Saved] {
        let journal = try Journal(
            directory: directory, create: false, passphrase: encrypted ? Passphrase(passphrase) : nil)
        defer { try? journal.close() }
        return try entries(of: journal)
    }

    static func entries(of journal: Journal) throws -> [Saved] {
        try journal.list(PageRequest(limit: 0)).entries.map(Saved.init).sorted { $0.number < $1.number }
    }

    static func numbers(_ results: SearchResults) -> [Int64] { results.entries.map(\.id.number).sorted() }
}
