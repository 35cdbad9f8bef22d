import ArgumentParser
import JournalKit

struct PassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Change an encrypted journal's passphrase.",
        discussion: """
            Wraps the journal's key under the new passphrase; nothing else is rewritten. The \
            current passphrase comes as for every command ($JOURNAL_PASSPHRASE_FILE, \
            $JOURNAL_PASSPHRASE_COMMAND or the terminal), the new one from \
            $JOURNAL_NEW_PASSPHRASE_FILE, $JOURNAL_NEW_PASSPHRASE_COMMAND or the terminal, typed \
            twice.

            The key itself stays the same: a copy of the old journal.key (a backup, a synced \
            folder's history) still opens the journal with the old passphrase, today's files and \
            every later one. To shut out a passphrase that may be known, `journal rekey \
            --new-passphrase` also replaces the key.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(
        name: .customLong("kdf"),
        help: ArgumentHelp(
            "A new Argon2id cost: interactive, moderate or sensitive (default: the journal's own).", valueName: "level")
    )
    var level: KeyDerivationLevel?

    func run() throws {
        let directory = try journal.directory
        JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: "passphrase")
        JournalCommand.keepMemoryPrivate()
        let old = try PassphraseInput.current(for: directory.url.path)
        let new = try PassphraseInput.new(for: directory.url.path)
        try Journal.changePassphrase(of: directory, from: old, to: new, cost: level?.cost)
        print("changed the passphrase of the journal in \(directory.url.path)")
    }
}
