import ArgumentParser
import JournalKit

struct DecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Turn an encrypted journal back into plain text.",
        discussion: """
            All or nothing, as encrypt: the journal in plain text is built beside the folder, \
            checked, and put in its place in one step. Its files can then be read by anyone who \
            can read the folder.
            """)

    @ParentCommand var journal: JournalCommand

    func run() throws {
        let directory = try journal.directory
        JournalCommand.heldLock = try JournalCommand.lockJournal(directory, for: "decrypt")
        JournalCommand.keepMemoryPrivate()
        let passphrase = try PassphraseInput.current(for: directory.url.path)
        let progress = ProgressBar(label: "decrypting", unit: .bytes)
        let report = try Journal.decrypt(directory, passphrase: passphrase, progress: progress.handler)
        progress.finish()
        print("decrypted the journal in \(directory.url.path): its files are in plain text now")
        if let leftOver = report.leftOver {
            Terminal.standardError.write(
                "journal: the old encrypted files could not be removed: delete \(leftOver.path) yourself\n")
        }
    }
}
