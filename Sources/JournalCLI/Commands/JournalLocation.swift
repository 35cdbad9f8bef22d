import Foundation
import JournalKit

/// Which journal a command acts on, as `--store` and `-j` chose it (the values, whoever read
/// them: swift-argument-parser, or ``DirectCommandLine``), and how a command opens it.
struct JournalLocation: Equatable {
    /// `--store DIR`.
    var store: String?
    /// `-j NAME`, `--journal NAME`.
    var journalName: String?

    /// The journal's folder: --store, else -j's journal, else $JOURNAL_STORE, else $JOURNAL's
    /// journal, else the configuration's default journal, else the XDG default. A name the
    /// configuration doesn't know is a usage error.
    var directory: StoreDirectory {
        get throws(JournalError) {
            let environment = ProcessEnvironment.variables
            if let store { return StoreDirectory(path: store) }
            let configuration = try ConfigurationFile.current.get()
            if let journalName { return StoreDirectory(path: try configuration.folder(ofJournal: journalName)) }
            if let store = environment["JOURNAL_STORE"], !store.isEmpty { return StoreDirectory(path: store) }
            if let name = environment["JOURNAL"], !name.isEmpty {
                return StoreDirectory(path: try configuration.folder(ofJournal: name))
            }
            if let name = configuration.defaultJournal {
                return StoreDirectory(path: try configuration.folder(ofJournal: name))
            }
            return StoreDirectory.defaultDirectory(environment: environment)
        }
    }

    /// The journal chosen by --store, $JOURNAL_STORE or the XDG default, opened and caught up;
    /// created when missing only for the commands that add entries. Opened for one answer, as
    /// most commands give (``JournalUse/oneAnswer``), unless `use` says it is kept open.
    ///
    /// An encrypted journal's passphrase comes from ``PassphraseInput``; the process then makes
    /// no core dump (its memory holds the journal's text).
    ///
    /// A command that changes the journal's files names itself in `changing` ("add"): the
    /// journal's lock is taken first (``JournalCommand/lockJournal(_:for:create:)``) and held until the process
    /// ends.
    func openJournal(
        create: Bool = false, use: JournalUse = .oneAnswer, changing command: String? = nil
    ) throws
        -> Journal
    {
        let directory = try self.directory
        if let command {
            JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: command, create: create)
        }
        var passphrase: Passphrase?
        if directory.isEncrypted {
            JournalCommand.keepMemoryPrivate()
            passphrase = try PassphraseInput.current(for: directory.url.path)
            JournalCommand.openedPassphrase = passphrase
        }
        let progress = ProgressBar(label: "indexing")
        let journal = try Journal(
            directory: directory, create: create, passphrase: passphrase, use: use, progress: progress.handler)
        progress.finish()
        for notice in journal.notices { Terminal.standardError.write("journal: \(notice)\n") }
        JournalCommand.keptJournal = journal
        if command != nil { JournalCommand.tidyEdits(of: journal) }
        return journal
    }
}
