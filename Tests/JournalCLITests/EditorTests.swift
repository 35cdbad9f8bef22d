import Foundation
import Testing

@testable import JournalCLI

/// What the user writes in the editor survives: what can be checked is checked before the
/// editor opens; a save that fails after it closed keeps the text in a private file whose path
/// the error gives; TERM and HUP keep it (in plain text) or wipe it (an encrypted journal); an
/// edit folder left by a kill is dealt with by the next command; vim and nvim are recognised
/// under any name and told to keep no copy of the text elsewhere.
@Suite struct EditorTests {
    /// A shell script (an editor, mostly), made executable, beside the store.
    private func shellScript(_ body: String, for journal: JournalProcess) throws -> String {
        let path = try journal.file(bytes: Data("#!/bin/sh\n\(body)\n".utf8), name: "editor-\(UUID().uuidString)")
        chmod(path, 0o700)
        return path
    }

    /// The journal's folders an edit left: (kept unsaved, still being edited or cut short).
    private func editFolders(_ journal: JournalProcess) -> (unsaved: [String], editing: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journal.store.path)) ?? []
        return (names.filter { $0.hasPrefix(".journal-unsaved-") }, names.filter { $0.hasPrefix(".journal-edit-") })
    }

    /// The path of the kept text an error names (the last, after any notes of earlier ones).
    private func keptPath(in message: String) -> String? {
        guard let range = message.range(of: "the text is kept in ", options: .backwards) else { return nil }
        return String(message[range.upperBound...].prefix { $0 != " " })
    }

    private static let noRuntimeFolder = ["XDG_RUNTIME_DIR": ""]

    @Test func whatCanBeCheckedIsRefusedBeforeTheEditorOpens() throws {
        let journal = try JournalProcess.encrypted()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the first entry"]).status == 0)
        let marker = journal.store.appendingPathExtension("editor-ran")
        let editor = try shellScript("touch '\(marker.path)'; echo 'typed words' > \"$1\"", for: journal)
        let wrong = try journal.file(bytes: Data("not the passphrase\n".utf8), name: "wrong")
        let cases: [([String], [String: String])] = [
            (["edit", "p1", "--date", "the day after never"], [:]),
            (["edit", "p1"], ["JOURNAL_PASSPHRASE_FILE": wrong]),
            (["edit", "p9"], [:]),
        ]
        for (arguments, environment) in cases {
            let outcome = try journal.run(arguments, environment: environment.merging(["EDITOR": editor]) { $1 })
            #expect(outcome.status != 0, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: marker.path), "\(arguments): the editor opened")
        }
    }

    /// `journal add` on a terminal, while another command changes the journal: it waits, saying
    /// for what, before the editor opens, not after the text is written.
    @Test func anAddWaitsForTheJournalBeforeTheEditorOpens() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the first entry"]).status == 0)
        let opened = journal.store.appendingPathExtension("editor-opened")
        let released = journal.store.appendingPathExtension("released")
        let editor = try shellScript("touch '\(opened.path)'; echo 'written after the wait' > \"$1\"", for: journal)
        // Another command holds the journal's lock for a second, then says it let go.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import fcntl, os, sys, time
            f = open(sys.argv[1], "a+"); fcntl.flock(f, fcntl.LOCK_EX); f.truncate(0)
            f.write("journal import\\t%d\\n" % os.getpid()); f.flush(); open(sys.argv[2] + ".held", "w").close()
            time.sleep(1); open(sys.argv[2], "w").close(); fcntl.flock(f, fcntl.LOCK_UN)
            """,
            journal.store.appendingPathComponent("journal.sqlite-lock").path, released.path,
        ]
        try holder.run()
        let held = released.appendingPathExtension("held")
        while !FileManager.default.fileExists(atPath: held.path) { Thread.sleep(forTimeInterval: 0.01) }
        // On a terminal: `script` runs it on a pseudo-terminal of its own.
        let onATerminal = try shellScript(
            #"exec /usr/bin/script -qec "$(printf "'%s' " "$@")" /dev/null"#, for: journal)
        let outcome = try journal.run(["add"], environment: ["EDITOR": editor], launcher: [onATerminal])
        holder.waitUntilExit()
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(
            outcome.output.contains("waiting for journal import (process \(holder.processIdentifier))"),
            "\(outcome.output)")
        let openedAt = try FileManager.default.attributesOfItem(atPath: opened.path)[.modificationDate] as? Date
        let releasedAt = try FileManager.default.attributesOfItem(atPath: released.path)[.modificationDate] as? Date
        #expect(openedAt != nil && releasedAt != nil && openedAt! >= releasedAt!, "the editor opened after the wait")
        #expect(try journal.run(["show", "p2", "--json"]).json()["text"] as? String == "written after the wait")
    }

    /// In a real terminal, the editor is the terminal's foreground job and reads its keys (run
    /// through Foundation's `Process`, it was in a process group of its own, in the background,
    /// and vim quit at once: "Error reading input").
    @Test func theEditorReadsTheTerminal() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the entry"]).status == 0)
        let editor = try shellScript(#"read line && printf '%s\n' "$line" > "$1""#, for: journal)
        let session = try TmuxSession(
            [JournalProcess.executable.path, "--store", journal.store.path, "edit", "p1"],
            environment: ["EDITOR": editor, "XDG_RUNTIME_DIR": ""])
        usleep(300_000)
        try session.type("typed at the terminal")
        try session.press("Enter")
        #expect(try session.waitForExit().status == 0)
        #expect(try journal.run(["show", "p1", "--json"]).json()["text"] as? String == "typed at the terminal")
    }

    /// vim itself, where it is installed (it is on this project's machines), under the name
    /// Debian gives it by default, `editor`: given its keys, told to keep no history.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/vim.basic")))
    func vimEditsAnEntryInATerminal() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the entry"]).status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("editor").path, withDestinationPath: "/usr/bin/vim.basic")
        let session = try TmuxSession(
            [JournalProcess.executable.path, "--store", journal.store.path, "edit", "p1"],
            environment: [
                "EDITOR": "editor", "PATH": folder.path + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": "", "HOME": folder.path,
            ])
        try session.waitFor("the entry")
        try session.press("A")
        try session.type(", changed in vim")
        try session.press("Escape")
        try session.type(":wq")
        try session.press("Enter")
        #expect(try session.waitForExit().status == 0)
        #expect(
            try journal.run(["show", "p1", "--json"]).json()["text"] as? String == "the entry, changed in vim")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".viminfo").path))
    }

    @Test func anEditRefusedAfterTheEditorClosesKeepsTheText() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the entry as it was"]).status == 0)
        // While the editor is open, another command edits the same entry.
        let binary = JournalProcess.executable.path
        let editor = try shellScript(
            "'\(binary)' --store '\(journal.store.path)' edit p1 --text 'changed meanwhile' >/dev/null\n"
                + "printf 'the words I typed\\n' > \"$1\"", for: journal)
        let outcome = try journal.run(
            ["edit", "p1"], environment: ["EDITOR": editor].merging(Self.noRuntimeFolder) { $1 })
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("p1 was changed by another command"), "\(outcome.error)")
        let kept = try #require(keptPath(in: outcome.error), "\(outcome.error)")
        #expect(
            String(decoding: try JournalProcess.contents(of: URL(fileURLWithPath: kept)), as: UTF8.self)
                == "the words I typed\n")
        #expect(try journal.run(["show", "p1", "--json"]).json()["text"] as? String == "changed meanwhile")
        #expect(editFolders(journal).unsaved.count == 1 && editFolders(journal).editing.isEmpty)
        // The next command that changes the journal says where the text is, until it is removed.
        let next = try journal.run(["add", "another entry"])
        #expect(next.status == 0 && next.error.contains(kept), "\(next.error)")
    }

    @Test func aTextTooLongOrADeletedEntryKeepsTheText() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "one"]).status == 0)
        #expect(try journal.run(["add", "two"]).status == 0)
        let long = try shellScript("head -c 67108865 /dev/zero | tr '\\0' 'a' > \"$1\"", for: journal)
        let tooLong = try journal.run(
            ["edit", "p1"], environment: ["EDITOR": long].merging(Self.noRuntimeFolder) { $1 })
        #expect(tooLong.status == 1 && keptPath(in: tooLong.error) != nil, "\(tooLong.error)")
        let binary = JournalProcess.executable.path
        let deleting = try shellScript(
            "'\(binary)' --store '\(journal.store.path)' delete p2 >/dev/null; echo 'new words' > \"$1\"", for: journal)
        let gone = try journal.run(
            ["edit", "p2"], environment: ["EDITOR": deleting].merging(Self.noRuntimeFolder) { $1 })
        #expect(gone.status == 1 && gone.error.contains("no entry"), "\(gone.error)")
        let kept = try #require(keptPath(in: gone.error))
        let saved = try journal.run(["add"], input: try JournalProcess.contents(of: URL(fileURLWithPath: kept)))
        #expect(saved.status == 0, "\(saved.error)")
        #expect(try journal.run(["show", "p3", "--json"]).json()["text"] as? String == "new words")
    }

    /// TERM or HUP while the editor is open: passed on to it; then an encrypted journal's text is
    /// wiped, a plain one's kept. The process ends with 128 + the signal's number.
    @Test(arguments: [(SIGTERM, false), (SIGTERM, true), (SIGHUP, false), (SIGHUP, true)])
    func aSignalDuringAnEdit(_ signal: Int32, encrypted: Bool) throws {
        let journal = encrypted ? try JournalProcess.encrypted() : JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "an entry"]).status == 0)
        let ready = journal.store.appendingPathExtension("editor-ready")
        // The editor's shell, then `sleep` in its place: the signal passed on ends it.
        let editor = try shellScript(
            "echo 'half-typed words' > \"$1\"; touch '\(ready.path)'; exec sleep 20", for: journal)
        let process = try journal.start(
            ["edit", "p1"], environment: ["EDITOR": editor].merging(Self.noRuntimeFolder) { $1 })
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready.path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(editFolders(journal).editing.count == 1, "the edit is under way in the journal's folder")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        let folders = editFolders(journal)
        #expect(folders.editing.isEmpty)
        if encrypted {
            #expect(folders.unsaved.isEmpty, "an encrypted journal keeps no text in the clear")
        } else {
            let kept = journal.store.appendingPathComponent(try #require(folders.unsaved.first)).appendingPathComponent(
                "entry.txt")
            #expect(String(decoding: try JournalProcess.contents(of: kept), as: UTF8.self) == "half-typed words\n")
        }
        #expect(try journal.run(["show", "p1", "--json"]).json()["text"] as? String == "an entry")
    }

    /// An edit whose process was killed (SIGKILL, nothing run) leaves its folder: the next command
    /// that changes an encrypted journal wipes it, and says so; a plain journal's is kept, and said.
    @Test(arguments: [false, true])
    func anEditFolderLeftByAKillIsDealtWith(encrypted: Bool) throws {
        let journal = encrypted ? try JournalProcess.encrypted() : JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "an entry"]).status == 0)
        let ready = journal.store.appendingPathExtension("editor-ready")
        let editor = try shellScript(
            "echo 'words of a killed edit' > \"$1\"; echo $$ > '\(ready.path)'; exec sleep 20", for: journal)
        let process = try journal.start(
            ["edit", "p1"], environment: ["EDITOR": editor].merging(Self.noRuntimeFolder) { $1 })
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready.path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        // A search meanwhile leaves the folder of the edit under way alone.
        #expect(try journal.run(["add", "written while the editor is open"]).status == 0)
        #expect(editFolders(journal).editing.count == 1)
        kill(process.processIdentifier, SIGKILL)
        // The editor outlives a killed process; it ends too, as a closed terminal would end it.
        let editorProcess = try String(contentsOf: ready, encoding: .utf8)
        kill(Int32(editorProcess.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, SIGKILL)
        process.waitUntilExit()
        #expect(editFolders(journal).editing.count == 1)
        let next = try journal.run(["add", "the next command"])
        #expect(next.status == 0)
        #expect(editFolders(journal).editing.isEmpty)
        if encrypted {
            #expect(next.error.contains("an encrypted journal keeps no entry in the clear"), "\(next.error)")
            #expect(editFolders(journal).unsaved.isEmpty)
        } else {
            #expect(next.error.contains("an edit was cut short"), "\(next.error)")
            #expect(editFolders(journal).unsaved.count == 1)
        }
    }

    /// vim and nvim by what they are, whatever their name; nvim gets `-n` too; other editors
    /// nothing.
    @Test func vimAndNvimAreRecognisedUnderAnyName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("editors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func program(_ name: String, version: String) throws {
            let path = folder.appendingPathComponent(name).path
            try Data("#!/bin/sh\necho '\(version)'\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o700)
        }
        try program("vim.basic", version: "VIM - Vi IMproved 9.0")
        try program("nvim", version: "NVIM v0.9.5")
        try program("nano", version: "GNU nano, version 7.2")
        try program("real-vim", version: "VIM - Vi IMproved 9.0")
        try program("real-nvim", version: "NVIM v0.9.5")
        for (link, target) in [
            ("vi", "vim.basic"), ("editor", "real-vim"), ("sensible-editor", "real-nvim"), ("ed", "nano"),
        ] {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(link).path, withDestinationPath: target)
        }
        let environment = ["PATH": folder.path]
        let expected: [(String, EditorCommand.Family)] = [
            ("vim.basic", .vim), ("vi", .vim), ("nvim", .neovim), ("editor", .vim), ("sensible-editor", .neovim),
            ("nano", .other), ("ed", .other), ("\(folder.path)/vi -f", .vim), ("missing-editor", .other),
        ]
        for (command, family) in expected {
            #expect(EditorCommand.family(of: command, environment: environment) == family, "\(command)")
        }
        #expect(EditorCommand(command: "nvim", family: .neovim).shellLine == "exec nvim -i NONE -n \"$1\"")
        #expect(EditorCommand(command: "vi", family: .vim).shellLine == "exec vi -i NONE \"$1\"")
        #expect(EditorCommand(command: "nano", family: .other).shellLine == "exec nano \"$1\"")
        #expect(EditorCommand(command: "TERM=xterm vim", family: .vim).shellLine == "TERM=xterm vim -i NONE \"$1\"")
    }
}
