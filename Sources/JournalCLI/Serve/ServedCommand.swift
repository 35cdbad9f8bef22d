import ArgumentParser
import JournalKit
import TextReport

/// A command `journal serve` answers: the object it prints with `--json`, from a journal the
/// server opened once. Its options are parsed as on the command line (the same parser, the same
/// errors); only where the journal comes from and where the answer goes differ.
protocol ServedCommand: ParsableCommand {
    /// The positional argument a request names by its key (`"query"`, `"text"`, `"id"`), nil
    /// when the command takes none.
    static var positionalKey: String? { get }

    /// What the command prints with `--json`, answered from `journal`.
    func answer(in journal: Journal) throws -> JSONValue
}
