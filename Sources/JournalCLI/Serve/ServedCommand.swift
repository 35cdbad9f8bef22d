import ArgumentParser
import JournalKit
import TextReport

/// What answers a request to `journal serve`: the object the command prints with `--json`,
/// from a journal the server opened once.
protocol JournalAnswering {
    /// What the command prints with `--json`, answered from `journal`.
    func answer(in journal: Journal) throws -> JSONValue
}

/// A command `journal serve` answers. Its options are parsed as on the command line (the same
/// parsers, the same errors); only where the journal comes from and where the answer goes differ.
protocol ServedCommand: ParsableCommand, JournalAnswering {
    /// The positional argument a request names by its key (`"query"`, `"text"`, `"id"`), nil
    /// when the command takes none.
    static var positionalKey: String? { get }
}

extension SearchArguments: JournalAnswering {}
extension ListArguments: JournalAnswering {}
