import ArgumentParser
import Foundation
import JournalKit

/// `note-index`: a folder of Markdown or text notes, searchable as you type.
@main
struct NoteIndex: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note-index",
        abstract: "Index a folder of notes into a journal and search them.",
        discussion: """
            Each .md, .markdown or .txt file of the folder becomes one journal entry, dated by the \
            file's modification time. Indexing again adds new files, updates changed ones and \
            removes deleted ones. The journal lives in FOLDER/.note-index unless --journal says \
            otherwise.
            """,
        subcommands: [Index.self, Search.self])
}

/// The options every subcommand shares.
struct Location: ParsableArguments {
    @Argument(help: "The folder of notes.")
    var folder: String

    @Option(help: ArgumentHelp("The journal's folder.", valueName: "DIR"))
    var journal: String?

    var notes: URL { URL(fileURLWithPath: folder).standardizedFileURL }
    var store: StoreDirectory { StoreDirectory(path: journal ?? notes.appendingPathComponent(".note-index").path) }
}

extension NoteIndex {
    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add, update and remove the folder's notes.")

        @OptionGroup var location: Location

        func run() async throws {
            let journal = try Journal(directory: location.store)
            defer { try? journal.close() }
            var catalog = try Catalog(in: location.store)
            let changes = try await catalog.synchronize(folder: location.notes, into: journal)
            try catalog.save()
            print(
                "\(changes.added) added, \(changes.updated) updated, \(changes.removed) removed, \(changes.unchanged) unchanged"
            )
            for skipped in changes.skipped {
                FileHandle.standardError.write(Data("note-index: skipped \(skipped)\n".utf8))
            }
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find the notes whose words start with the query's words.")

        @OptionGroup var location: Location

        @Argument(help: "What to look for: `bru cre` finds notes that mention crème brûlée.")
        var query: [String]

        @Option(help: "At most this many notes.")
        var limit = 10

        func run() async throws {
            let journal = try Journal(directory: location.store, create: false)
            defer { try? journal.close() }
            let catalog = try Catalog(in: location.store)
            let paths = catalog.pathsByEntry
            let results = try await journal.search(query.joined(separator: " "), page: PageRequest(limit: limit))
            for entry in results.entries {
                let line = Snippet.line(of: entry.text, matching: results.query)
                print("\(paths[entry.id] ?? entry.id.uri): \(line)")
            }
            print("\(results.entries.count) of \(results.total) notes")
        }
    }
}
