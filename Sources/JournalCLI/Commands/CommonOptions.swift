import ArgumentParser
import Foundation
import JournalKit

/// --limit and --offset, for the commands that page through entries newest first.
struct PageOptions: ParsableArguments {
    @Option(help: "Show at most N entries (0: all).")
    var limit: Int = 20

    @Option(help: "Skip the first N entries.")
    var offset: Int = 0

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (all) or more, not \(limit)") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more, not \(offset)") }
    }

    func request() throws -> PageRequest { try PageRequest(limit: limit, offset: offset) }
}

/// --json, for the commands whose output other programs read.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object instead of text.")
    var json = false
}

/// `--strategies NAMES` of compare and bench: comma-separated names or aliases; all when absent.
enum StrategyList {
    static func parse(_ list: String?) throws -> [SearchStrategy] {
        guard let list else { return SearchStrategies.all }
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else {
            throw JournalError(.usage, "--strategies names no strategy (`journal search --strategy list` lists them)")
        }
        return try names.map(SearchStrategies.named)
    }
}

/// The entry a command acts on.
struct EntryArgument: ParsableArguments {
    @Argument(help: "The entry: its URI, p12, or 12.")
    var id: String

    /// The identifier in `journal`, refused when it is not one or names another journal's entry.
    func resolve(in journal: Journal) throws -> EntryID { try journal.entryID(parsing: id) }
}
