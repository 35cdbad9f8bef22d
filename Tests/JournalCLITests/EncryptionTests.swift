import Foundation
import JournalKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `journal init --encrypt`, `encrypt`, `decrypt` and `passphrase`, and every command on an
/// encrypted journal, run as a user would, the passphrase from the documented variables.
@Suite struct EncryptionTests {
    /// A file holding `passphrase` on its first line, beside the store.
    private func passphraseFile(_ passphrase: String, for journal: JournalProcess) throws -> String {
        let url = journal.store.deletingLastPathComponent().appendingPathComponent(
            "\(journal.store.lastPathComponent)-\(UUID().uuidString).pass")
        try Data((passphrase + "\n").utf8).write(to: url)
        return url.path
    }

    /// Every file in the store's folder, concatenated.
    private func allBytes(of journal: JournalProcess) throws -> Data {
        try FileManager.default.contentsOfDirectory(atPath: journal.store.path).reduce(into: Data()) {
            $0 += try Data(contentsOf: journal.store.appendingPathComponent($1))
        }
    }

    @Test func anEncryptedJournalWorksWithItsPassphraseAndOnlyWithIt() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let right = try passphraseFile("a long and right passphrase", for: journal)
        let wrong = try passphraseFile("a wrong one", for: journal)
        let created = try journal.run(
            ["init", "--encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": right])
        #expect(created.status == 0, "\(created.error)")
        #expect(created.output.contains("created an encrypted journal"))
        let unlocked = ["JOURNAL_PASSPHRASE_FILE": right]
        #expect(
            try journal.run(["add", "Walked to the lighthouse with Ingrid #coast"], environment: unlocked).status == 0)
        #expect(try journal.run(["add", "Quiet morning, wrote letters"], environment: unlocked).status == 0)
        for strategy in [StrategyID.prefix, .token, .fts5, .containsCD].map(\.name) {
            let found = try journal.run(
                ["search", "--json", "--strategy", strategy, "lighthouse"], environment: unlocked)
            #expect(found.status == 0, "\(strategy): \(found.error)")
            #expect(try found.json()["total"] as? Int == 1, "\(strategy)")
        }
        #expect(try journal.run(["verify"], environment: unlocked).status == 0)
        #expect(try journal.run(["reindex"], environment: unlocked).status == 0)
        let filtered = try journal.run(
            ["search", "--json", "--tag", "coast", "--on", "today", "lighthouse"], environment: unlocked)
        #expect(try filtered.json()["total"] as? Int == 1, "\(filtered.error)")
        let compared = try journal.run(
            ["compare", "--strategies", "prefix,token,fts5", "--format", "json"], environment: unlocked)
        #expect(compared.status == 0, "\(compared.error)")

        let refused = try journal.run(["search", "lighthouse"], environment: ["JOURNAL_PASSPHRASE_FILE": wrong])
        #expect(refused.status == 1)
        #expect(refused.error == "journal: wrong passphrase for this journal\n")
        let command = try journal.run(["list"], environment: ["JOURNAL_PASSPHRASE_COMMAND": "cat '\(right)'"])
        #expect(command.status == 0, "\(command.error)")
        #expect(command.output.contains("Quiet morning"))
        let failingCommand = try journal.run(["list"], environment: ["JOURNAL_PASSPHRASE_COMMAND": "exit 3"])
        #expect(failingCommand.status != 0)
        #expect(failingCommand.error.contains("status 3"))
        #expect(try allBytes(of: journal).range(of: Data("lighthouse".utf8)) == nil)
        let exported = try journal.run(["export", "--format", "jsonl"], environment: unlocked)
        #expect(exported.status == 0)
        #expect(exported.output.contains("lighthouse"))
        #expect(exported.error.contains("this export of it is in plain text"))
    }

    @Test func encryptDecryptAndAChangedPassphraseKeepEveryEntry() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        let before = try journal.run(["search", "--json", "--limit", "0", "the"]).json()["total"] as? Int
        let first = try passphraseFile("first passphrase", for: journal)
        let second = try passphraseFile("second passphrase", for: journal)
        #expect(try allBytes(of: journal).range(of: Data("the".utf8)) != nil)

        let encrypted = try journal.run(
            ["encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": first])
        #expect(encrypted.status == 0, "\(encrypted.error)")
        #expect(encrypted.error.contains("deleted, not wiped"))
        let withoutPassphrase = try journal.run(["list"], launcher: ["/usr/bin/setsid", "--wait"])
        #expect(withoutPassphrase.status == 1)
        let after = try journal.run(
            ["search", "--json", "--limit", "0", "the"], environment: ["JOURNAL_PASSPHRASE_FILE": first])
        #expect(try after.json()["total"] as? Int == before)
        #expect(try journal.run(["verify"], environment: ["JOURNAL_PASSPHRASE_FILE": first]).status == 0)

        let changed = try journal.run(
            ["passphrase"], environment: ["JOURNAL_PASSPHRASE_FILE": first, "JOURNAL_NEW_PASSPHRASE_FILE": second])
        #expect(changed.status == 0, "\(changed.error)")
        #expect(try journal.run(["list"], environment: ["JOURNAL_PASSPHRASE_FILE": first]).status == 1)
        #expect(try journal.run(["list"], environment: ["JOURNAL_PASSPHRASE_FILE": second]).status == 0)

        let decrypted = try journal.run(["decrypt"], environment: ["JOURNAL_PASSPHRASE_FILE": second])
        #expect(decrypted.status == 0, "\(decrypted.error)")
        #expect(try journal.run(["search", "--json", "--limit", "0", "the"]).json()["total"] as? Int == before)
        #expect(try journal.run(["verify"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: journal.store.appendingPathComponent("journal.key").path))
    }

    @Test func withoutAPassphraseOrATerminalTheCommandSaysHowToGiveOne() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let secret = try passphraseFile("secret", for: journal)
        #expect(
            try journal.run(
                ["init", "--encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": secret]
            ).status == 0
        )
        let outcome = try journal.run(["list"], launcher: ["/usr/bin/setsid", "--wait"])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("JOURNAL_PASSPHRASE_FILE"), "\(outcome.error)")
        let twice = try journal.run(["init", "--encrypt"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": secret])
        #expect(twice.status == 2)
        #expect(twice.error.contains("already holds a journal"))
    }

    /// An import into an encrypted journal killed in its transaction and while indexing: the
    /// WALs, the stores and every other file hold none of its text, and the journal opens
    /// whole (`verify`), with the import wholly there or wholly absent.
    @Test func anEncryptedImportKilledLeavesNoPlainText() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let secret = try passphraseFile("killed mid-import", for: journal)
        let unlocked = ["JOURNAL_PASSPHRASE_FILE": secret]
        #expect(
            try journal.run(
                ["init", "--encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": secret]
            ).status
                == 0)
        let filler = String(repeating: "the river was wide and slow that morning, ", count: 6)
        let lines = (0..<12_000).map {
            "{\"text\": \"entry \($0) of the quetzalcoatlus survey, page \($0 % 97): \(filler)\"}"
        }
        let input = try journal.file(lines)
        for moment in [CrashTests.Moment.midImport(bytes: 2 << 20), .midIndexing(storeBytes: 4 << 20)] {
            let importer = try journal.start(["import", input], environment: unlocked)
            let reached = CrashTests.wait(for: moment, store: journal.store, while: importer)
            #expect(try allBytes(of: journal).range(of: Data("quetzalcoatlus".utf8)) == nil, "\(moment), still running")
            kill(importer.processIdentifier, SIGKILL)
            importer.waitUntilExit()
            #expect(reached, "the import ended before the moment \(moment)")
            #expect(try allBytes(of: journal).range(of: Data("quetzalcoatlus".utf8)) == nil, "killed \(moment)")
            let verified = try journal.run(["verify"], environment: unlocked)
            #expect(verified.status == 0, "killed \(moment): \(verified.output)\(verified.error)")
            let entries = try #require(
                try journal.run(["stats", "--json"], environment: unlocked).json()["entries"] as? Int)
            #expect(entries == 0 || entries == 12_000, "killed \(moment): \(entries) entries")
        }
        #expect(try allBytes(of: journal).range(of: Data("quetzalcoatlus".utf8)) == nil, "after the catch-up")
    }

    /// `export --encrypt` writes age's format, which another age implementation (rage, through
    /// pyrage) opens with the passphrase into the same text as the plain export.
    @Test func anEncryptedExportOpensWithAge() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        let plain = try journal.run(["export", "--format", "jsonl"])
        #expect(plain.status == 0)
        let secret = try passphraseFile("an export passphrase", for: journal)
        let file = journal.store.deletingLastPathComponent().appendingPathComponent(
            "\(journal.store.lastPathComponent).age")
        defer { try? FileManager.default.removeItem(at: file) }
        let exported = try journal.run(
            ["export", "--format", "jsonl", "--encrypt", "-o", file.path],
            environment: ["JOURNAL_EXPORT_PASSPHRASE_FILE": secret])
        #expect(exported.status == 0, "\(exported.error)")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.starts(with: Data("age-encryption.org/v1\n-> scrypt ".utf8)))
        #expect(bytes.range(of: Data("crème".utf8)) == nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, pyrage; sys.stdout.buffer.write(pyrage.passphrase.decrypt(open(sys.argv[1], 'rb').read(), sys.argv[2]))",
            file.path, "an export passphrase",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let opened = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "is pyrage installed? scripts/test installs it with pip")
        #expect(String(decoding: opened, as: UTF8.self) == plain.output)
    }

    /// An encrypted export of a plain journal, and an import of an encrypted jrnl journal into
    /// one, hold a passphrase and decrypted text in memory: the process makes no core dump from
    /// before it reads the passphrase. Seen from the passphrase command, which inherits the
    /// process's core limit (raised first, since it is often 0 already).
    @Test func aPassphraseForAnExportOrAJrnlImportKeepsTheProcessPrivate() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "a plain entry"]).status == 0)
        let limit = journal.store.appendingPathExtension("core-limit")
        defer { try? FileManager.default.removeItem(at: limit) }
        let coreAllowed = ["/bin/sh", "-c", "ulimit -c unlimited && exec \"$@\"", "sh"]
        let command = "ulimit -c > '\(limit.path)'; echo 'a passphrase'"
        let export = journal.store.appendingPathExtension("age")
        defer { try? FileManager.default.removeItem(at: export) }
        let exported = try journal.run(
            ["export", "--encrypt", "-o", export.path], environment: ["JOURNAL_EXPORT_PASSPHRASE_COMMAND": command],
            launcher: coreAllowed)
        #expect(exported.status == 0, "\(exported.error)")
        #expect(try String(contentsOf: limit, encoding: .utf8) == "0\n")
        try FileManager.default.removeItem(at: limit)
        // jrnl's version 3 header: told apart as an encrypted jrnl journal, its password read.
        let jrnl = try journal.file(bytes: Data("JRNLv3 not really encrypted".utf8), name: "jrnl")
        let imported = try journal.run(
            ["import", jrnl], environment: ["JOURNAL_IMPORT_PASSWORD_COMMAND": command], launcher: coreAllowed)
        #expect(imported.status != 0)
        #expect(try String(contentsOf: limit, encoding: .utf8) == "0\n")
    }

    /// Every command on an encrypted journal, compare's rebuild, edits in the editor (which
    /// leaves a swap file beside the text, as vim does) and a Day One archive imported from
    /// standard input included: nothing written to the temporary folder, at any moment (the
    /// power-cut recorder logs every write there, of files removed since too), and no file left
    /// in it, in the session's runtime folder or in the journal's, holds the journal's words.
    @Test func nothingOfAnEncryptedJournalLandsOutsideItsFolder() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let scratch = journal.store.deletingLastPathComponent().appendingPathComponent(
            "\(journal.store.lastPathComponent).scratch")
        let temporary = scratch.appendingPathComponent("tmp")
        let runtime = scratch.appendingPathComponent("runtime")
        for folder in [temporary, runtime] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        chmod(runtime.path, 0o700)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let secret = try passphraseFile("nothing leaks", for: journal)
        let editor = scratch.appendingPathComponent("editor.sh")
        try Data(
            """
            #!/bin/sh
            printf 'Pterodactylus swap of %s' "$1" > "$(dirname "$1")/.entry.txt.swp"
            printf ' and Pterodactylus again' >> "$1"

            """.utf8
        ).write(to: editor)
        chmod(editor.path, 0o755)
        let secrets = ["Pterodactylus", "Quokkaesque", "Vindolanda", "ブルーベリー"]
        let zip = scratch.appendingPathComponent("dayone.zip")
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        made.arguments = [
            "python3", "-c",
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("Journal.json", '{"entries": [{"uuid": "00112233445566778899AABBCCDDEEFF", "creationDate": "2023-04-01T07:30:00Z", "text": "Vindolanda tablets by the fire"}]}')
            """,
            zip.path,
        ]
        try made.run()
        made.waitUntilExit()
        #expect(made.terminationStatus == 0)
        for useRuntime in [false, true] {
            var environment = ["JOURNAL_PASSPHRASE_FILE": secret, "TMPDIR": temporary.path, "EDITOR": editor.path]
            if useRuntime { environment["XDG_RUNTIME_DIR"] = runtime.path }
            let commands: [([String], Data)] = [
                (["init", "--encrypt", "--kdf", "interactive"], Data()),
                (["add", "Quokkaesque morning #Pterodactylus"], Data()),
                (["add"], Data("ブルーベリー from standard input".utf8)),
                (["import", "-", "--format", "dayone"], try Data(contentsOf: zip)),
                (["edit", "p1"], Data()),
                (["search", "quokka"], Data()),
                (["search", "--strategy", SearchStrategies[.containsCD].alias, "vindo"], Data()),
                (["list"], Data()),
                (["show", "p2"], Data()), (["tags"], Data()), (["stats", "--query", "quokka"], Data()),
                (["compare", "--runs", "1"], Data()), (["verify"], Data()), (["reindex"], Data()),
                (["rekey", "--kdf", "interactive"], Data()),
                (["export", "--encrypt", "-o", scratch.appendingPathComponent("out.age").path], Data()),
            ]
            let needles = Set(secrets.flatMap { [$0, $0.lowercased()] })
            let recorder = JournalProcess.executable.deletingLastPathComponent().appendingPathComponent(
                "libPowerCutRecorder.so")
            let log = scratch.appendingPathComponent("writes.log")
            for (arguments, input) in commands where !(useRuntime && arguments.first == "init") {
                try? FileManager.default.removeItem(at: log)
                let recorded = environment.merging([
                    "POWERCUT_ROOT": temporary.path, "POWERCUT_LOG": log.path, "LD_PRELOAD": recorder.path,
                ]) {
                    $1
                }
                let outcome = try journal.run(arguments, input: input, environment: recorded)
                #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
                let calls = FileManager.default.fileExists(atPath: log.path) ? try RecordedCall.read(log) : []
                for case .write(_, _, let bytes) in calls {
                    for needle in needles {
                        #expect(
                            Data(bytes).range(of: Data(needle.utf8)) == nil,
                            "\(arguments) wrote \(needle) to the temporary folder")
                    }
                }
            }
            #expect(try journal.run(["show", "p1"], environment: environment).output.contains("Pterodactylus again"))
            for folder in [temporary, runtime, journal.store] {
                let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
                for name in files {
                    let bytes = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
                    for needle in needles {
                        #expect(
                            bytes.range(of: Data(needle.utf8)) == nil,
                            "\(folder.lastPathComponent)/\(name) holds \(needle)")
                    }
                }
            }
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: runtime.path)).isEmpty,
                "the editing folder is removed")
        }
    }
}
