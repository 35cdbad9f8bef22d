import JournalKit

/// What a `journal` process costs before it does any work: whole processes that open no
/// journal, next to a `sqlite3` process that answers `select 1`, each run in turn with the
/// others round after round, so that all of them see the same machine.
///
/// A cold search's time is this start-up plus opening the journal, searching and printing:
/// the rows tell which part of a cold figure is the process and which the search.
public struct StartupCost {
    /// One command, timed as whole processes.
    public struct Row {
        /// The command line, as a user would type it.
        public let command: String
        /// Median wall time of its processes.
        public let seconds: Double
    }

    /// `journal` processes, cheapest first.
    public let rows: [Row]
    /// The `sqlite3` process that opens an in-memory database and answers one query, when
    /// `sqlite3` is installed.
    public let sqlite: Row?
    /// Processes of each command.
    public let runs: Int
    /// The executable timed: its size and relocations (nil when it could not be read as ELF).
    public let image: ExecutableImage?

    /// The median of the `journal` process whose command line is `command`, over `sqlite3`'s.
    public func ratio(of command: String) -> Double? {
        guard let sqlite, let row = rows.first(where: { $0.command == command }) else { return nil }
        return row.seconds / sqlite.seconds
    }

    /// The commands timed, each after `journal`.
    static let commands: [[String]] = [["--version"], ["--help"], ["search", "--strategy", "list"]]

    /// Times `runs` rounds of every command and of `sqlite3`, one process each per round.
    public static func measure(executable: String, runs: Int, progress: (String) -> Void) throws -> StartupCost {
        progress("start-up: \(runs) rounds of journal --version, --help, search --strategy list and sqlite3…")
        let sqlite3 = ChildProcess.find("sqlite3")
        var journalTimes = Array(repeating: [Double](), count: commands.count)
        var sqliteTimes: [Double] = []
        for _ in 0..<runs {
            for (index, arguments) in commands.enumerated() {
                let outcome = try ChildProcess.run(executable, arguments)
                guard outcome.status == 0 else {
                    throw JournalError(
                        .store, "journal \(arguments.joined(separator: " ")) failed (exit status \(outcome.status))")
                }
                journalTimes[index].append(outcome.seconds)
            }
            if let sqlite3 {
                let outcome = try ChildProcess.run(sqlite3, [":memory:", "select 1"])
                guard outcome.status == 0 else {
                    throw JournalError(.store, "sqlite3 failed (exit status \(outcome.status))")
                }
                sqliteTimes.append(outcome.seconds)
            }
        }
        return StartupCost(
            rows: zip(commands, journalTimes).map {
                Row(command: "journal " + $0.joined(separator: " "), seconds: LatencySummary($1).median)
            },
            sqlite: sqliteTimes.isEmpty
                ? nil : Row(command: "sqlite3 :memory: 'select 1'", seconds: LatencySummary(sqliteTimes).median),
            runs: runs, image: try? ExecutableImage(path: executable))
    }
}
