import ArgumentParser
import Foundation
import JournalKit

/// The Argon2id cost a new passphrase is given, by libsodium's names for its levels.
enum KeyDerivationLevel: String, ExpressibleByArgument, CaseIterable {
    case interactive, moderate, sensitive

    var cost: KeyDerivationCost {
        switch self {
        case .interactive: .interactive
        case .moderate: .moderate
        case .sensitive: .sensitive
        }
    }

    /// "3 passes over 256 MiB".
    var summary: String { "\(cost.passes) passes over \(cost.memoryBytes >> 20) MiB" }
}

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a journal, in plain text or encrypted.",
        discussion: """
            add and import create a plain-text journal when there is none; init creates one \
            explicitly, and with --encrypt an encrypted one: every file of the journal is then \
            encrypted at rest, and every command asks for the passphrase.

            The passphrase is never an argument (other users can see those): it is the first line \
            of the file $JOURNAL_NEW_PASSPHRASE_FILE, or of what $JOURNAL_NEW_PASSPHRASE_COMMAND \
            prints, or else typed twice at the terminal. Later commands read it from \
            $JOURNAL_PASSPHRASE_FILE, $JOURNAL_PASSPHRASE_COMMAND (e.g. 'pass show journal') or \
            the terminal. There is no way into an encrypted journal without its passphrase.
            """)

    @ParentCommand var journal: JournalCommand

    @Flag(help: "Encrypt the journal at rest under a passphrase.")
    var encrypt = false

    @Option(
        name: .customLong("kdf"),
        help: ArgumentHelp(
            "How hard the passphrase is to guess by force, as Argon2id's cost: interactive (2 passes over 64 MiB), moderate (3 over 256 MiB) or sensitive (4 over 1 GiB).",
            valueName: "level"))
    var level: KeyDerivationLevel = .moderate

    @OptionGroup var output: OutputOptions

    func run() throws {
        let directory = journal.directory
        if directory.isEncrypted || FileManager.default.fileExists(atPath: directory.mainStoreURL.path) {
            throw JournalError(.usage, "\(directory.url.path) already holds a journal")
        }
        if encrypt {
            JournalCommand.forbidCoreDumps()
            let passphrase = try PassphraseInput.new(for: directory.url.path)
            let created = try Journal.create(in: directory, passphrase: passphrase, cost: level.cost)
            try created.close()
        } else {
            let created = try Journal(directory: directory, create: true)
            try created.close()
        }
        if output.json {
            var fields: [(String, JSONValue)] = [("journal", .string(directory.url.path)), ("encrypted", .bool(encrypt))]
            if encrypt {
                fields += [
                    (
                        "kdf",
                        .object([
                            "algorithm": .string("argon2id"), "passes": .integer(level.cost.passes),
                            "memoryBytes": .integer(level.cost.memoryBytes),
                        ])
                    )
                ]
            }
            JSONOutput.print(.fields(fields))
        } else if encrypt {
            print("created an encrypted journal in \(directory.url.path) (Argon2id, \(level.summary))")
        } else {
            print("created a journal in \(directory.url.path)")
        }
    }
}
