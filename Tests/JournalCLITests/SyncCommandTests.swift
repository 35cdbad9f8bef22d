import Foundation
import Testing

/// `journal sync`: journals in separate folders sync through a folder carried by git, and every
/// mistake a user can make with the command gets a clear error, writing nothing.
@Suite struct SyncCommandTests {
    private static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-sync-\(name)-\(UUID().uuidString)")
    }

    /// Runs git in `folder` (or anywhere, for `clone`), failing the test when it fails.
    @discardableResult
    private static func git(_ arguments: [String], in folder: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "git", "-c", "user.name=Journal Test", "-c", "user.email=test@example.com", "-c",
                "init.defaultBranch=main",
            ]
            + (folder.map { ["-C", $0.path] } ?? []) + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")): \(text)")
        return text
    }

    /// Each entry's URI and text, as `list --json` gives them.
    private static func texts(_ journal: JournalProcess) throws -> [String] {
        let listed = try journal.run(["list", "--limit", "0", "--json"])
        let entries = try #require(try listed.json()["results"] as? [[String: Any]])
        return entries.compactMap { entry in (entry["text"] as? String).map { "\(entry["id"] ?? "") \($0)" } }.sorted()
    }

    @Test func twoJournalsSyncThroughAGitRepositoryPushedAndPulled() throws {
        let (remote, laptopClone, desktopClone) = (Self.temporary("remote"), Self.temporary("x"), Self.temporary("y"))
        let (laptop, desktop) = (JournalProcess(), JournalProcess())
        defer {
            for folder in [remote, laptopClone, desktopClone] { try? FileManager.default.removeItem(at: folder) }
            laptop.removeStore()
            desktop.removeStore()
        }
        try Self.git(["init", "--bare", remote.path])
        try Self.git(["clone", remote.path, laptopClone.path])
        try Self.git(["clone", remote.path, desktopClone.path])

        #expect(try laptop.run(["add", "a morning on the laptop"]).status == 0)
        #expect(
            try laptop.run(["add", "--tag", "work", "--star", "--", "- a note that starts with a dash"]).status == 0)
        let sent = try laptop.run(["sync", "--json", laptopClone.path])
        #expect(sent.status == 0, "\(sent.error)")
        #expect(try sent.json()["sent"] as? Int == 2)
        try Self.git(["add", "-A"], in: laptopClone)
        try Self.git(["commit", "-m", "laptop"], in: laptopClone)
        try Self.git(["push", "origin", "HEAD:main"], in: laptopClone)

        try Self.git(["pull", "origin", "main"], in: desktopClone)
        #expect(try desktop.run(["add", "an evening on the desktop"]).status == 0)
        let both = try desktop.run(["sync", desktopClone.path])
        #expect(both.status == 0, "\(both.error)")
        #expect(both.output.contains("sent 1 change, received 2 changes: 2 added"), "\(both.output)")
        try Self.git(["add", "-A"], in: desktopClone)
        try Self.git(["commit", "-m", "desktop"], in: desktopClone)
        try Self.git(["push", "origin", "HEAD:main"], in: desktopClone)

        try Self.git(["pull", "origin", "main"], in: laptopClone)
        // The folder is remembered: `journal sync` alone.
        let back = try laptop.run(["sync", "--json"])
        #expect(try back.json()["received"] as? Int == 1)
        #expect(try Self.texts(laptop) == Self.texts(desktop))
        #expect(try Self.texts(laptop).count == 3)
        let found = try desktop.run(["search", "--json", "--tag", "work", "dash"])
        #expect(try found.json()["total"] as? Int == 1)
        #expect(try desktop.run(["verify"]).status == 0)

        // An entry written after the first sync is named on the desktop by the URI the laptop
        // gave it when it was written.
        let added = try laptop.run(["add", "--json", "written after the first sync"])
        let uri = try #require(try added.json()["id"] as? String)
        #expect(try laptop.run(["sync"]).status == 0)
        try Self.git(["add", "-A"], in: laptopClone)
        try Self.git(["commit", "-m", "laptop again"], in: laptopClone)
        try Self.git(["push", "origin", "HEAD:main"], in: laptopClone)
        try Self.git(["pull", "origin", "main"], in: desktopClone)
        #expect(try desktop.run(["sync"]).status == 0)
        let shown = try desktop.run(["show", "--json", uri]).json()
        #expect(shown["id"] as? String == uri && shown["text"] as? String == "written after the first sync")
        #expect(try Self.texts(laptop) == Self.texts(desktop))

        // A journal that has only taken in lists itself beside the others.
        let fresh = JournalProcess()
        defer { fresh.removeStore() }
        #expect(try fresh.run(["sync", laptopClone.path]).status == 0)
        let listed = try #require(try fresh.run(["sync", "--status", "--json"]).json()["devices"] as? [[String: Any]])
        #expect(listed.count == 3 && listed.filter { $0["this_journal"] as? Bool == true }.count == 1)

        // The laptop lists it too, by what it said it took in: every journal that synced counts.
        let status = try laptop.run(["sync", "--status", "--json"])
        let devices = try #require(try status.json()["devices"] as? [[String: Any]])
        #expect(devices.count == 3)
        #expect(devices.allSatisfy { $0["taken_in"] as? Bool == true })
        #expect(devices.allSatisfy { $0["waited_for"] as? Bool == true && $0["last_said"] is String })
        #expect(try status.json()["pending"] as? Int == 0)
    }

    @Test func mistakesGetAClearErrorAndWriteNothing() throws {
        let journal = JournalProcess()
        let folder = Self.temporary("folder")
        defer {
            journal.removeStore()
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(try journal.run(["add", "an entry"]).status == 0)

        let never = try journal.run(["sync"])
        #expect(never.status == 2 && never.error.contains("journal sync FOLDER"), "\(never.error)")
        let notSynced = try journal.run(["sync", "--status"])
        #expect(notSynced.status == 0 && notSynced.output.contains("has not synced yet"))
        let missing = try journal.run(["sync", folder.path])
        #expect(missing.status == 2 && missing.error.contains("does not exist"), "\(missing.error)")
        try Data("not a folder".utf8).write(to: folder)
        let file = try journal.run(["sync", folder.path])
        #expect(file.status == 2 && file.error.contains("is not a folder"), "\(file.error)")
        try FileManager.default.removeItem(at: folder)
        #expect(try journal.run(["sync", "--bogus"]).status == 2)

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try journal.run(["sync", "--status", folder.path]).status == 2)
        let synced = try journal.run(["sync", "--json", folder.path])
        let device = try #require(try synced.json()["device"] as? String)
        // A byte changed in the folder is reported, and the exit status says so.
        let other = JournalProcess()
        defer { other.removeStore() }
        let written = folder.appendingPathComponent("journal-sync/\(device)/00000001.jsonl")
        var bytes = try Data(contentsOf: written)
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: written)
        let damaged = try other.run(["sync", folder.path])
        #expect(damaged.status == 1 && damaged.error.contains("damaged record"), "\(damaged.error)")
        #expect(try other.run(["list", "--json"]).json()["total"] as? Int == 0)
        // A journal not there yet is made by its first sync, and takes everything in.
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: written)
        #expect(try other.run(["sync"]).status == 0)
        #expect(try other.run(["list", "--json"]).json()["total"] as? Int == 1)
    }

    /// A device that is gone is forgotten by its ID or the start of it, as `--status` shows it;
    /// anything else is a clear error that forgets nothing.
    @Test func aDeviceThatIsGoneIsForgottenByTheStartOfItsID() throws {
        let (journal, gone) = (JournalProcess(), JournalProcess())
        let folder = Self.temporary("folder")
        defer {
            journal.removeStore()
            gone.removeStore()
            try? FileManager.default.removeItem(at: folder)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try journal.run(["add", "an entry"]).status == 0)
        let never = try journal.run(["sync", "--forget", "ABCD"])
        #expect(never.status == 2 && never.error.contains("has not synced yet"), "\(never.error)")
        let own = try #require(try journal.run(["sync", "--json", folder.path]).json()["device"] as? String)
        let other = try #require(try gone.run(["sync", "--json", folder.path]).json()["device"] as? String)
        for (arguments, says) in [
            (["sync", "--forget", own], "this journal's own device"),
            (["sync", "--forget", "ZZZZ"], "no device of this journal's folder is ZZZZ"),
            (["sync", "--forget", other, folder.path], "takes neither FOLDER nor --status"),
            (["sync", "--forget", other, "--status"], "takes neither FOLDER nor --status"),
        ] {
            let refused = try journal.run(arguments)
            #expect(refused.status == 2 && refused.error.contains(says), "\(arguments): \(refused.error)")
        }
        #expect(try journal.run(["sync", "--status", "--json"]).output.contains("\"forgotten\":true") == false)
        let forgotten = try journal.run(["sync", "--json", "--forget=\(other.prefix(8).lowercased())"])
        #expect(forgotten.status == 0, "\(forgotten.error)")
        #expect(try forgotten.json()["id"] as? String == other)
        #expect(try forgotten.json()["forgotten"] as? Bool == true && forgotten.json()["waited_for"] as? Bool == false)
        let status = try journal.run(["sync", "--status"])
        #expect(status.output.contains("\(other)") && status.output.contains("forgotten here"), "\(status.output)")
        // Once it syncs again, saying how far it has taken in, it is waited for again.
        #expect(try gone.run(["add", "back again"]).status == 0)
        #expect(try gone.run(["sync"]).status == 0)
        let devices = try #require(
            try journal.run(["sync", "--status", "--json"]).json()["devices"] as? [[String: Any]])
        #expect(devices.allSatisfy { $0["forgotten"] as? Bool == false && $0["waited_for"] as? Bool == true })
    }

    /// A sync that finds nothing new, nothing to send and nothing to compact writes nothing to the
    /// journal's stores, traced as a user would check it: it costs what reading them costs.
    @Test func aSyncWithNothingNewWritesNothingToTheStores() throws {
        let (journal, other) = (JournalProcess(), JournalProcess())
        let folder = Self.temporary("folder")
        let trace = journal.store.appendingPathExtension("trace")
        defer {
            journal.removeStore()
            other.removeStore()
            for file in [folder, trace] { try? FileManager.default.removeItem(at: file) }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try journal.run(["add", "an entry"]).status == 0)
        #expect(try other.run(["add", "another"]).status == 0)
        for synced in [journal, other, journal, other, journal] {
            #expect(try synced.run(["sync", folder.path]).status == 0)
        }
        let strace = [
            "strace", "-f", "-y", "-qq", "-e", "trace=write,pwrite64,ftruncate,fsync,fdatasync", "-o", trace.path,
        ]
        let run = try journal.run(["sync"], launcher: ["/usr/bin/env"] + strace)
        #expect(run.status == 0 && run.output.contains("sent 0 changes, received 0 changes"), "\(run.output)")
        let written = String(decoding: try JournalProcess.contents(of: trace), as: UTF8.self).split(separator: "\n")
            .filter {
                $0.contains("\(journal.store.path)/") && ($0.contains(".sqlite>") || $0.contains(".sqlite-wal>"))
            }
        #expect(written.isEmpty, "\(written.joined(separator: "\n"))")
    }

    @Test func encryptedJournalsSyncUnderTheirPassphraseAndAnotherIsRefused() throws {
        let (laptop, desktop) = (try JournalProcess.encrypted(), try JournalProcess.encrypted())
        let folder = Self.temporary("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let otherStore = Self.temporary("other")
        let otherPassphrase = otherStore.appendingPathExtension("passphrase")
        try Data("a passphrase of its own\n".utf8).write(to: otherPassphrase)
        let other = JournalProcess(store: otherStore, environment: ["JOURNAL_PASSPHRASE_FILE": otherPassphrase.path])
        defer {
            for journal in [laptop, desktop, other] { journal.removeStore() }
            try? FileManager.default.removeItem(at: folder)
        }
        let created = try other.run(
            ["init", "--encrypt", "--kdf", "interactive"],
            environment: ["JOURNAL_NEW_PASSPHRASE_FILE": otherPassphrase.path])
        #expect(created.status == 0, "\(created.error)")

        #expect(try laptop.run(["add", "--tag", "Zephyr", "words only the laptop knows"]).status == 0)
        #expect(try laptop.run(["sync", folder.path]).status == 0)
        let taken = try desktop.run(["sync", "--json", folder.path])
        #expect(taken.status == 0, "\(taken.error)")
        #expect(try taken.json()["added"] as? Int == 1)
        #expect(try Self.texts(desktop) == Self.texts(laptop))
        #expect(try Self.texts(desktop).map { $0.hasSuffix(" words only the laptop knows") } == [true])
        let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
        for name in files {
            let bytes = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
            for secret in ["laptop", "Zephyr", "zephyr"] {
                #expect(bytes.firstRange(of: Data(secret.utf8)) == nil, "\(secret) in \(name)")
            }
        }

        let refused = try other.run(["sync", folder.path])
        #expect(refused.status != 0 && refused.error.contains("another passphrase"), "\(refused.error)")
        #expect(try Self.texts(other).isEmpty)
        let plain = JournalProcess()
        defer { plain.removeStore() }
        #expect(try plain.run(["add", "in the clear"]).status == 0)
        let mixed = try plain.run(["sync", folder.path])
        #expect(mixed.status == 2 && mixed.error.contains("encrypted journals"), "\(mixed.error)")
    }
}
