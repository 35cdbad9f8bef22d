import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct JournalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journals",
        abstract: "List the journals the configuration file names, with their entries and sizes.",
        discussion: """
            The journal marked * is the one a command uses without --store or -j. An encrypted journal's entries \
            are not counted (that would need its passphrase); a folder with no journal yet says so.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    /// A journal of the list, as measured.
    private struct Listed {
        let name: String?
        let folder: String
        let inUse: Bool
        /// Entries, when counted.
        let entries: Int?
        let bytes: Int
        /// "encrypted", "no journal yet", or why it could not be read.
        let note: String?
    }

    func run() throws {
        let configuration = try ConfigurationFile.current.get()
        let current = try journal.directory.url.standardizedFileURL.path
        var listed = configuration.journals.map { Self.measure(name: $0.name, folder: $0.folder, current: current) }
        if !listed.contains(where: \.inUse) {
            listed.append(Self.measure(name: nil, folder: current, current: current))
        }
        if output.json {
            JSONOutput.print(
                .object([
                    "config": .string(configuration.url.path), "config_exists": .bool(configuration.exists),
                    "journals": .array(
                        listed.map { item in
                            .fields([
                                ("name", item.name.map(JSONValue.string) ?? .null), ("folder", .string(item.folder)),
                                ("in_use", .bool(item.inUse)),
                                ("entries", item.entries.map(JSONValue.integer) ?? .null),
                                ("bytes", .integer(item.bytes)), ("note", item.note.map(JSONValue.string) ?? .null),
                            ])
                        }),
                ]))
            return
        }
        let terminal = Terminal.standardOutput
        let table = TextTable(
            headers: ["", "journal", "entries", "size", "folder"],
            rows: listed.map { item in
                [
                    item.inUse ? "*" : "", item.name ?? "(unnamed)",
                    item.entries.map(Formatting.grouped) ?? (item.note ?? ""),
                    Formatting.bytes(item.bytes), item.folder,
                ]
            },
            numericColumns: [2, 3])
        print(table.text(terminal.style))
        print(
            terminal.dim(
                configuration.exists
                    ? "configuration: \(configuration.url.path)"
                    : "no configuration file (\(configuration.url.path)): name journals there, [journals] then work = \"~/Journals/work\""
            ))
    }

    /// The journal in `folder`: its entries (opened when in plain text) and its files' bytes.
    private static func measure(name: String?, folder: String, current: String) -> Listed {
        let directory = StoreDirectory(path: folder)
        let path = directory.url.standardizedFileURL.path
        let bytes = directory.bytesOnDisk
        var entries: Int?
        var note: String?
        if !FileManager.default.fileExists(atPath: directory.mainStoreURL.path) && !directory.isEncrypted {
            note = "no journal yet"
        } else if directory.isEncrypted {
            note = "encrypted"
        } else {
            do {
                let journal = try Journal(directory: directory, create: false)
                entries = try journal.statistics().entries
                try journal.close()
            } catch {
                note = "unreadable: \(error.message)"
            }
        }
        return Listed(name: name, folder: path, inUse: path == current, entries: entries, bytes: bytes, note: note)
    }
}
