import ArgumentParser
import CProcessMemory
import Foundation
import JournalKit

/// `journal`: a journal in the terminal, searchable in every language ICU knows.
@main
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "A journal in the terminal, with fast full-text search in every language.",
        discussion: """
            Entries live in DIR/journal.sqlite; their search tokens in DIR/search.sqlite beside it. \
            The journal is DIR from --store, else the journal named by -j, else DIR from \
            $JOURNAL_STORE, else the journal named by $JOURNAL, else the default journal of the \
            configuration file, else $XDG_DATA_HOME/journal (~/.local/share/journal).

            The configuration file, $XDG_CONFIG_HOME/journal/config.toml (~/.config/journal/), is \
            optional: `journal journals` shows where it is and the journals it names. It names them \
            under [journals] (work = "~/Journals/work"), and may set default (a journal's name), \
            editor (before $VISUAL and $EDITOR), strategy (search's default) and color or colour (auto, \
            always or never).

            Environment:
              JOURNAL_STORE       the journal's folder (after --store and -j)
              JOURNAL             a journal's name in the configuration file
              XDG_DATA_HOME       where the default journal lives (~/.local/share)
              XDG_CONFIG_HOME     where config.toml lives (~/.config)
              JOURNAL_PASSPHRASE_FILE, JOURNAL_PASSPHRASE_COMMAND
                                  an encrypted journal's passphrase: the first line of
                                  the file, or of what the command prints; also for
                                  init --encrypt, encrypt and export --encrypt
              JOURNAL_NEW_PASSPHRASE_FILE, JOURNAL_NEW_PASSPHRASE_COMMAND
                                  the new passphrase of `journal passphrase`; for init
                                  --encrypt and encrypt, before the two above
              JOURNAL_EXPORT_PASSPHRASE_FILE, JOURNAL_EXPORT_PASSPHRASE_COMMAND
                                  export --encrypt's, before JOURNAL_PASSPHRASE_*
              JOURNAL_IMPORT_PASSWORD_FILE, JOURNAL_IMPORT_PASSWORD_COMMAND
                                  an encrypted jrnl journal's password, for import
              VISUAL, EDITOR      the editor of add and edit (after the configuration's)
              XDG_RUNTIME_DIR     where an entry is edited, in a private folder (else in
                                  the journal's folder)
              NO_COLOR, TERM      no colour when NO_COLOR is set or TERM is dumb
              TZ                  the time zone dates are read and shown in
              COLUMNS             the width of output that goes to no terminal

            Without a terminal, a passphrase that no variable gives is an error: nothing is \
            asked, nothing is written.

            Exit status: 0 success (no results included), 1 failure, 2 usage error or bad query.
            """,
        version: "journal 0.1.0",
        subcommands: [
            InitCommand.self, AddCommand.self, ImportCommand.self, SearchCommand.self, ListCommand.self,
            TagsCommand.self,
            TagCommand.self, UntagCommand.self, StarCommand.self, UnstarCommand.self, ExportCommand.self,
            ShowCommand.self, EditCommand.self, DeleteCommand.self, StatsCommand.self, VerifyCommand.self,
            ReindexCommand.self,
            EncryptCommand.self, DecryptCommand.self, PassphraseCommand.self, RekeyCommand.self, JournalsCommand.self,
            ServeCommand.self, SyncCommand.self,
            CompareCommand.self,
            GenerateCommand.self, BenchCommand.self,
        ])

    @Option(
        name: .long,
        help: ArgumentHelp("The journal's folder (add and import create it when missing).", valueName: "DIR"))
    var store: String?

    @Option(
        name: [.customShort("j"), .customLong("journal")],
        help: ArgumentHelp(
            "The journal NAME of the configuration file's [journals] (`journal journals` lists them).",
            valueName: "NAME"))
    var journalName: String?

    /// Which journal the command line chose (``JournalLocation``).
    var location: JournalLocation { JournalLocation(store: store, journalName: journalName) }

    /// The journal the command line chose, opened (``JournalLocation/openJournal(create:use:changing:)``).
    func openJournal(
        create: Bool = false, use: JournalUse = .oneAnswer, changing command: String? = nil
    ) throws -> Journal {
        try location.openJournal(create: create, use: use, changing: command)
    }

    /// Before the editor opens for `command` ("add") on `journal`: checks that the journal takes
    /// the entry (it can be written, no import is pending) and waits for any command changing
    /// it meanwhile, so that what the user writes is not refused for a reason known before.
    static func prepareForEditing(_ journal: Journal, command: String) throws {
        try journal.checkAcceptsChanges()
        tidyEdits(of: journal)
        try lockJournal(journal.directory, for: command)?.release()
    }

    /// Says what edits cut short or not saved left in the journal's folder, and removes those
    /// of an encrypted journal whose process was killed (``EditingFolder/tidy(journalFolder:encrypted:)``).
    static func tidyEdits(of journal: Journal) {
        for line in EditingFolder.tidy(journalFolder: journal.directory.url, encrypted: journal.isEncrypted) {
            Terminal.standardError.write("journal: \(line)\n")
        }
    }

    /// The journal's folder the command line chose (``JournalLocation/directory``).
    var directory: StoreDirectory {
        get throws(JournalError) { try location.directory }
    }

    /// The journal's lock (``JournalLock``) for the command `command` ("add"), which changes the
    /// journal in `directory`: taken when the folder exists (created first with `create`),
    /// waiting for as long as another command holds it, and saying once on standard error what
    /// it waits for. Nil when there is no folder, which opening the journal then reports.
    static func lockJournal(
        _ directory: StoreDirectory, for command: String, create: Bool = false
    ) throws
        -> JournalLock?
    {
        if create { try DurableFiles.createFolder(directory.url) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.url.path, isDirectory: &isFolder), isFolder.boolValue
        else { return nil }
        return try JournalLock.acquire(directory, purpose: "journal \(command)") { holder in
            Terminal.standardError.write(
                "journal: waiting for \(holder.map { "\($0)" } ?? "another command") to finish changing the journal in \(directory.url.path)…\n"
            )
        }
    }

    /// The lock a command holds until the process ends.
    nonisolated(unsafe) static var heldLock: JournalLock?

    /// Keeps the process's memory to itself: no core dump, and no other process of the same
    /// user reading it through ptrace or /proc/PID/mem (only root then can). Once a journal is
    /// decrypted, its memory holds the journal's text.
    static func keepMemoryPrivate() {
        _ = process_memory_keep_private()
    }

    /// Says on standard error, after a write, that what was written is saved but not yet
    /// searchable: the search store could not be brought up to date (a full disk, say).
    static func noteIndexBehind(_ journal: Journal) {
        guard let status = try? journal.indexStatus(), !status.isCurrent else { return }
        Terminal.standardError.write(
            "journal: saved; the search index is behind and will catch up on the next command that can write\n")
    }

    /// The journal a command opened, closed once its output is written: the process ends with
    /// `exit`, which releases nothing, and closing lets SQLite fold each WAL back into its store.
    nonisolated(unsafe) static var keptJournal: Journal?

    /// The passphrase an encrypted journal was opened with, for a command that needs it again
    /// (`sync` wraps and unwraps the devices' keys with it), so that it is asked once.
    nonisolated(unsafe) static var openedPassphrase: Passphrase?

    /// Runs the command line, turning every error into one line on standard error and the
    /// documented exit status.
    static func main() {
        let status: Int32
        // The command parsed, once it is: an error its run throws is about it.
        var parsed: ParsableCommand.Type?
        let arguments = OptionalValueArguments.normalized(Array(CommandLine.arguments.dropFirst())) { notice in
            Terminal.standardError.write("journal: note: \(notice)\n")
        }
        do {
            // The command lines programs start most often, read without the full parser.
            if let direct = DirectCommandLine.parse(arguments) {
                parsed = direct.commandType
                if direct.readsConfiguration { _ = try ConfigurationFile.current.get() }
                try direct.run()
            } else {
                var command = try parseAsRoot(arguments)
                parsed = type(of: command)
                _ = try ConfigurationFile.current.get()
                try command.run()
            }
            status = 0
        } catch let error as JournalError {
            let hint = error.kind == .noJournal ? " (journal add or journal import creates one)" : ""
            Terminal.standardError.write("journal: \(error.message)\(hint)\n")
            status = error.kind == .usage ? 2 : 1
        } catch let exit as ExitCode {
            status = exit.rawValue
        } catch {
            // ArgumentParser renders a help screen (or a completion script) each time it is asked
            // anything about the request, so it is asked once; only a failure's message starts
            // with its error prefix, or with the usage when it has no message.
            let full = fullMessage(for: error)
            let failed = full.isEmpty || ["Error: ", "Usage: ", "Help: "].contains { full.hasPrefix($0) }
            let code = failed ? exitCode(for: error) : .success
            if code == .success {
                print(full)
                status = 0
            } else {
                let firstLine = full.split(separator: "\n").first.map(String.init) ?? ""
                let message = firstLine.hasPrefix("Error: ") ? String(firstLine.dropFirst(7)) : "\(error)"
                let hint =
                    message.hasPrefix("Unknown option")
                    ? "an argument that starts with - but is no option goes after --, as in journal add -- '-5 degrees'"
                    : dashedValue(missingFrom: message, in: arguments).map {
                        "a value that starts with - follows the option after =, as in \($0)"
                    } ?? "see '\(helpCommand(in: full, parsed: parsed))'"
                Terminal.standardError.write("journal: \(message) (\(hint))\n")
                status = code == .validationFailure ? 2 : 1
            }
        }
        // Closed once nothing else runs (LeakSanitizer then sees no statement left open).
        try? keptJournal?.close()
        heldLock?.release()
        Foundation.exit(status)
    }

    /// The help command of the command a failure is about: the one `parsed` when its run
    /// failed, else the one ArgumentParser's message names in its last line ("See 'journal
    /// search --help' for more information."), else `journal --help`.
    static func helpCommand(in message: String, parsed: ParsableCommand.Type?) -> String {
        if let parsed, let path = path(to: parsed, from: JournalCommand.self), path.count > 1 {
            return (path + ["--help"]).joined(separator: " ")
        }
        guard let line = message.split(separator: "\n").last(where: { $0.contains("See 'journal") }),
            let start = line.firstIndex(of: "'"),
            let end = line[line.index(after: start)...].firstIndex(of: "'")
        else { return "journal --help" }
        return String(line[line.index(after: start)..<end])
    }

    /// `--limit=-1` when ArgumentParser's `message` says an option's value is missing because
    /// the argument after it starts with a dash (`--limit -1`, read as an option): how to give
    /// that value. Nil otherwise.
    static func dashedValue(missingFrom message: String, in arguments: [String]) -> String? {
        guard message.hasPrefix("Missing value for '-") else { return nil }
        let named = message.dropFirst("Missing value for '".count).prefix { $0 != " " && $0 != "'" }
        let names = named.split(separator: "/").map(String.init)
        guard let index = arguments.firstIndex(where: names.contains), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        guard value.hasPrefix("-"), value != "--" else { return nil }
        return "\(arguments[index])=\(value)"
    }

    /// The names from `root` down to the command `type`, nil when it is not among them.
    private static func path(to type: ParsableCommand.Type, from root: ParsableCommand.Type) -> [String]? {
        let name = root.configuration.commandName ?? "journal"
        if type == root { return [name] }
        for subcommand in root.configuration.subcommands {
            if let below = path(to: type, from: subcommand) { return [name] + below }
        }
        return nil
    }
}
