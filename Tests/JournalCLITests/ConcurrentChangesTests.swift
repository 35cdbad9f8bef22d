import Foundation
import Testing

/// Every pair of the commands that change a journal's files, run side by side on plain and on
/// encrypted journals, the second started a moment after the first: never two successes that
/// add up to a loss. After each pair the journal opens with the passphrase the last successful
/// command set, holds every entry, edit, deletion, tag, star and import a command reported
/// done, and `verify` finds nothing wrong.
///
/// CI runs two offsets per pair; `scripts/stress-changes` runs more, many times over
/// (`JOURNAL_CHANGE_OFFSETS`, seconds apart, comma-separated).
@Suite struct ConcurrentChangesTests {
    enum Kind: String, CaseIterable, Sendable {
        case plain, encrypted
    }

    /// A command of the matrix, as the instance `index` (0 or 1) of a pair runs it: each acts on
    /// entries of its own, so that what both report done can be checked whole.
    enum Command: String, CaseIterable, Sendable {
        case add, edit, delete, tag, star, `import`, reindex, encrypt, decrypt, rekey, passphrase

        /// Whether it runs on a journal of `kind`.
        func applies(to kind: Kind) -> Bool {
            switch self {
            case .encrypt: kind == .plain
            case .decrypt, .rekey, .passphrase: kind == .encrypted
            default: true
            }
        }

        func arguments(_ index: Int, importFile: String) -> [String] {
            switch self {
            case .add: ["add", "added by instance \(index)"]
            case .edit: ["edit", "p\(1 + index)", "--text", "edited by instance \(index)"]
            case .delete: ["delete", "p\(3 + index)"]
            case .tag: ["tag", "p\(5 + index)", "tagged\(index)"]
            case .star: ["star", "p\(7 + index)"]
            case .import: ["import", importFile]
            case .reindex: ["reindex"]
            case .encrypt: ["encrypt", "--kdf", "interactive"]
            case .decrypt: ["decrypt"]
            case .rekey: ["rekey", "--new-passphrase", "--kdf", "interactive"]
            case .passphrase: ["passphrase", "--kdf", "interactive"]
            }
        }
    }

    /// One pair on one kind of journal.
    struct Pair: Sendable, CustomTestStringConvertible {
        let first: Command
        let second: Command
        let kind: Kind
        var testDescription: String { "\(first.rawValue) + \(second.rawValue), \(kind.rawValue)" }
    }

    static let pairs: [Pair] = Kind.allCases.flatMap { kind in
        let commands = Command.allCases.filter { $0.applies(to: kind) }
        return commands.indices.flatMap { i in
            commands[i...].map { Pair(first: commands[i], second: $0, kind: kind) }
        }
    }

    static let offsets: [Double] =
        ProcessInfo.processInfo.environment["JOURNAL_CHANGE_OFFSETS"]?.split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        } ?? [0, 0.05]

    /// A command's run: how it ended, and when.
    struct Run {
        let command: Command
        let index: Int
        let outcome: JournalProcess.Outcome
        let ended: ContinuousClock.Instant
        var succeeded: Bool { outcome.status == 0 }
    }

    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Run] = []
        func add(_ run: Run) { lock.withLock { items.append(run) } }
        var all: [Run] { lock.withLock { items } }
    }

    @Test(arguments: pairs)
    func aPairOfChangesLosesNothing(_ pair: Pair) throws {
        for offset in Self.offsets {
            try run(pair, offset: offset)
        }
    }

    private func run(_ pair: Pair, offset: Double) throws {
        let journal = try Self.journal(pair.kind)
        defer { journal.removeStore() }
        let secrets = try (0..<3).map { index in
            try journal.file(bytes: Data("passphrase number \(index)\n".utf8), name: "passphrase-\(index)")
        }
        let imports = try (0..<2).map { index in
            try journal.file((0..<300).map { #"{"text": "imported\#(index) entry \#($0)"}"# }, name: "import-\(index)")
        }
        let runs = Runs()
        let group = DispatchGroup()
        for (index, command) in [pair.first, pair.second].enumerated() {
            if index == 1 { Thread.sleep(forTimeInterval: offset) }
            group.enter()
            Thread {
                let outcome =
                    (try? journal.run(
                        command.arguments(index, importFile: imports[index]),
                        environment: [
                            "JOURNAL_PASSPHRASE_FILE": secrets[2], "JOURNAL_NEW_PASSPHRASE_FILE": secrets[index],
                        ])) ?? .init(status: -1, output: "", error: "not run")
                runs.add(Run(command: command, index: index, outcome: outcome, ended: .now))
                group.leave()
            }.start()
        }
        group.wait()
        let finished = runs.all.sorted { $0.ended < $1.ended }
        let label = "\(pair.testDescription), \(offset) s apart"
        // 1: a failure; 2: refused as a usage error (decrypting a journal the other decrypted).
        for run in finished where ![0, 1, 2].contains(run.outcome.status) {
            Issue.record("\(label): \(run.command) ended with \(run.outcome.status): \(run.outcome.error)")
        }

        // What the successes add up to: the encryption and the passphrase the last one set.
        var encrypted = pair.kind == .encrypted
        var passphrase = secrets[2]
        for run in finished where run.succeeded {
            switch run.command {
            case .encrypt, .rekey, .passphrase: (encrypted, passphrase) = (true, secrets[run.index])
            case .decrypt: encrypted = false
            default: break
            }
        }
        let opening = ["JOURNAL_PASSPHRASE_FILE": passphrase]
        let listed = try journal.run(["list", "--limit", "0", "--json"], environment: opening)
        #expect(listed.status == 0, "\(label): the journal does not open: \(listed.error) (\(describe(finished)))")
        guard listed.status == 0 else { return }
        #expect(
            FileManager.default.fileExists(atPath: journal.store.appendingPathComponent("journal.key").path)
                == encrypted, "\(label): encrypted is not \(encrypted) (\(describe(finished)))")
        let entries = try listed.json()["results"] as? [[String: Any]] ?? []
        func entry(_ number: Int) -> [String: Any]? {
            entries.first { ($0["id"] as? String)?.hasSuffix("/Entry/p\(number)") == true }
        }
        for run in finished where run.succeeded {
            let index = run.index
            let what = "\(label): \(run.command) \(index) reported done"
            switch run.command {
            case .add:
                #expect(entries.contains { $0["text"] as? String == "added by instance \(index)" }, "\(what)")
            case .edit: #expect(entry(1 + index)?["text"] as? String == "edited by instance \(index)", "\(what)")
            case .delete: #expect(entry(3 + index) == nil, "\(what)")
            case .tag:
                let tags = entry(5 + index)?["tag_names"] as? [String] ?? []
                #expect(tags.contains("tagged\(index)"), "\(what)")
            case .star: #expect(entry(7 + index)?["starred"] as? Bool == true, "\(what)")
            case .import:
                #expect(
                    entries.count { ($0["text"] as? String)?.hasPrefix("imported\(index) ") == true } == 300, "\(what)")
            case .reindex, .encrypt, .decrypt, .rekey, .passphrase: break
            }
        }
        let verified = try journal.run(["verify"], environment: opening)
        #expect(verified.status == 0, "\(label): \(verified.output)\(verified.error) (\(describe(finished)))")
    }

    private func describe(_ runs: [Run]) -> String {
        runs.map { "\($0.command) \($0.index): exit \($0.outcome.status) \($0.outcome.error.prefix(200))" }
            .joined(separator: "; ")
    }

    /// A new journal of `kind` holding p1…p8, encrypted under "passphrase number 2".
    private static func journal(_ kind: Kind) throws -> JournalProcess {
        let journal = JournalProcess()
        let secret = try journal.file(bytes: Data("passphrase number 2\n".utf8), name: "initial")
        if kind == .encrypted {
            let created = try journal.run(
                ["init", "--encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": secret])
            #expect(created.status == 0, "\(created.error)")
        }
        let lines = (1...8).map { #"{"text": "entry \#($0) of eight"}"# }
        let imported = try journal.run(
            ["import", try journal.file(lines, name: "eight")], environment: ["JOURNAL_PASSPHRASE_FILE": secret])
        #expect(imported.status == 0, "\(imported.error)")
        return journal
    }
}
