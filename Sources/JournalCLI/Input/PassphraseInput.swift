import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Where the `journal` command gets a passphrase, as restic, borg and age do: never from its
/// own arguments (other users can read those), but from a pair of variables,
/// - `$NAME_FILE`: the first line of that file;
/// - `$NAME_COMMAND`: the first line a shell command prints (`pass show journal`);
/// - else the terminal, asked without echo (a new passphrase typed twice).
///
/// An encrypted journal's passphrase comes from `JOURNAL_PASSPHRASE_*`. Creating or encrypting
/// a journal (`init --encrypt`, `encrypt`) takes `JOURNAL_NEW_PASSPHRASE_*`, else the same
/// `JOURNAL_PASSPHRASE_*`, so that a script that sets the one variable works throughout;
/// `passphrase` takes its new one from `JOURNAL_NEW_PASSPHRASE_*` only. An encrypted export's
/// comes from `JOURNAL_EXPORT_PASSPHRASE_*`, else `JOURNAL_PASSPHRASE_*`; an encrypted jrnl
/// journal's password, to import it, from `JOURNAL_IMPORT_PASSWORD_*`.
enum PassphraseInput {
    /// A pair of variables naming a passphrase: NAME_FILE and NAME_COMMAND.
    struct Variables {
        let file: String
        let command: String

        static let journal = Variables(file: "JOURNAL_PASSPHRASE_FILE", command: "JOURNAL_PASSPHRASE_COMMAND")
        static let newJournal = Variables(
            file: "JOURNAL_NEW_PASSPHRASE_FILE", command: "JOURNAL_NEW_PASSPHRASE_COMMAND")
        static let export = Variables(
            file: "JOURNAL_EXPORT_PASSPHRASE_FILE", command: "JOURNAL_EXPORT_PASSPHRASE_COMMAND")
        static let jrnlImport = Variables(
            file: "JOURNAL_IMPORT_PASSWORD_FILE", command: "JOURNAL_IMPORT_PASSWORD_COMMAND")
    }

    /// The passphrase of the journal in `folder`.
    static func current(
        for folder: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws -> Passphrase {
        try read([.journal], environment: environment, prompt: "passphrase for \(folder): ", confirm: false)
    }

    /// The passphrase a journal is created or encrypted under, in `folder`.
    static func initial(
        for folder: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws -> Passphrase {
        try read(
            [.newJournal, .journal], environment: environment, prompt: "new passphrase for \(folder): ", confirm: true)
    }

    /// The new passphrase that replaces the current one of the journal in `folder`.
    static func new(
        for folder: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws -> Passphrase {
        try read([.newJournal], environment: environment, prompt: "new passphrase for \(folder): ", confirm: true)
    }

    /// The passphrase an encrypted export is written under.
    static func export(
        for file: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws -> Passphrase {
        try read([.export, .journal], environment: environment, prompt: "passphrase for \(file): ", confirm: true)
    }

    /// The password of the encrypted jrnl journal `file`, to import it.
    static func jrnlPassword(
        for file: String, environment: [String: String] = ProcessEnvironment.variables
    ) throws -> Passphrase {
        try read(
            [.jrnlImport], environment: environment, prompt: "password of the jrnl journal \(file): ", confirm: false)
    }

    /// From the first of `sources` that is set, else the terminal. Read a byte at a time into
    /// guarded memory (``Passphrase/firstLine(of:drainingRest:)``): no copy of it is left in the
    /// process's ordinary memory.
    private static func read(
        _ sources: [Variables], environment: [String: String], prompt: String, confirm: Bool
    ) throws -> Passphrase {
        let set = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let source = sources.first(where: { set($0.file) != nil || set($0.command) != nil }) {
            if let file = set(source.file) {
                let descriptor = open(file, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw JournalError(.usage, "cannot read the passphrase file \(file) ($\(source.file))")
                }
                defer { close(descriptor) }
                return try Passphrase.firstLine(of: descriptor)
            }
            return try output(of: set(source.command) ?? "")
        }
        let variables = sources.map { "\($0.file) or \($0.command)" }.joined(separator: ", else ")
        let passphrase = try fromTerminal(prompt: prompt, variables: variables)
        if confirm {
            let again = try fromTerminal(prompt: "again: ", variables: variables)
            guard again.matches(passphrase) else {
                throw JournalError(.usage, "the two passphrases differ; nothing was changed")
            }
        }
        return passphrase
    }

    /// The first line `command` prints, run by `/bin/sh`.
    private static func output(of command: String) throws -> Passphrase {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            throw JournalError(.usage, "cannot run the passphrase command: \(error.localizedDescription)")
        }
        let passphrase = Result { () throws(JournalError) in
            try Passphrase.firstLine(of: pipe.fileHandleForReading.fileDescriptor, drainingRest: true)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw JournalError(.usage, "the passphrase command failed (status \(process.terminationStatus))")
        }
        return try passphrase.get()
    }

    /// A line typed on the controlling terminal with echo off.
    private static func fromTerminal(prompt: String, variables: String) throws -> Passphrase {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else {
            throw JournalError(.passphraseRequired, "no terminal to ask on: set \(variables)")
        }
        defer { close(terminal) }
        var saved = termios()
        let hasSettings = tcgetattr(terminal, &saved) == 0
        if hasSettings {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(terminal, TCSAFLUSH, &quiet)
        }
        defer { if hasSettings { tcsetattr(terminal, TCSAFLUSH, &saved) } }
        _ = prompt.withCString { write(terminal, $0, strlen($0)) }
        return try Passphrase.firstLine(of: terminal)
    }
}
