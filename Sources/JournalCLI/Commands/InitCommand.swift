import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a journal, in plain text or encrypted.",
        discussion: """
            add and import create a plain-text journal when there is none; init creates one \
            explicitly, and with --encrypt an encrypted one: every file of the journal is then \
            encrypted at rest, and every command asks for the passphrase.

            The passphrase is never an argument (other users can see those): every command reads \
            it from the first line of the file $JOURNAL_PASSPHRASE_FILE, or of what \
            $JOURNAL_PASSPHRASE_COMMAND prints (e.g. 'pass show journal'), or else asks at the \
            terminal. init takes it the same way (typed twice at the terminal), unless \
            $JOURNAL_NEW_PASSPHRASE_FILE or $JOURNAL_NEW_PASSPHRASE_COMMAND is set. There is no \
            way into an encrypted journal without its passphrase.
            """)

    @ParentCommand var journal: JournalCommand

    @Flag(help: "Encrypt the journal at rest under a passphrase.")
    var encrypt = false

    @OptionGroup var keyDerivation: KeyDerivationOptions

    @OptionGroup var output: OutputOptions

    func run() throws {
        let directory = try journal.directory
        JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: "init", create: true)
        if directory.isEncrypted || FileManager.default.fileExists(atPath: directory.mainStoreURL.path) {
            throw JournalError(.usage, "\(directory.url.path) already holds a journal")
        }
        if encrypt {
            JournalCommand.keepMemoryPrivate()
            let passphrase = try PassphraseInput.initial(for: directory.url.path)
            let created = try Journal.create(in: directory, passphrase: passphrase, cost: keyDerivation.level.cost)
            try created.close()
        } else {
            let created = try Journal(directory: directory, create: true)
            try created.close()
        }
        if output.json {
            var fields: [(String, JSONValue)] = [
                ("journal", .string(directory.url.path)), ("encrypted", .bool(encrypt)),
            ]
            if encrypt {
                fields += [
                    (
                        "kdf",
                        .object([
                            "algorithm": .string("argon2id"), "passes": .integer(keyDerivation.level.cost.passes),
                            "memoryBytes": .integer(keyDerivation.level.cost.memoryBytes),
                        ])
                    )
                ]
            }
            JSONOutput.print(.fields(fields))
        } else if encrypt {
            print("created an encrypted journal in \(directory.url.path) (Argon2id, \(keyDerivation.level.summary))")
        } else {
            print("created a journal in \(directory.url.path)")
        }
    }
}
