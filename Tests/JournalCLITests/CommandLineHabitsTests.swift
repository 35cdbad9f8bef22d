import ArgumentParser
import Foundation
import JournalKit
import Testing

@testable import JournalCLI

/// What people bring from other command-line tools: `--` ending the options, `--opt=value`,
/// `-o -` for standard output, an optional value given after `=`, the one passphrase variable
/// a script sets, and help that reads in an 80-column terminal.
@Suite struct CommandLineHabitsTests {
    private func ids(_ outcome: JournalProcess.Outcome) throws -> Set<String> {
        let results = try #require(try outcome.json()["results"] as? [[String: Any]], "\(outcome.error)")
        return Set(results.compactMap { ($0["id"] as? String)?.components(separatedBy: "/").last })
    }

    /// `journal search -- -v`: every substring strategy finds the entries holding `-v`, and the
    /// query it reports is `-v`, not `-- -v`.
    @Test func aQueryStartingWithADashFollowsTheEndOfOptionsInEverySubstringStrategy() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let texts = [
            "ran grep -v on the logs", "the flag -v again, then -vv", "very verbose output", "a dash - and a v apart",
            "in-vitro, written with a hyphen",
        ]
        for text in texts { #expect(try journal.run(["add", text]).status == 0) }
        let holding = Set(texts.enumerated().filter { $0.element.contains("-v") }.map { "p\($0.offset + 1)" })
        #expect(holding == ["p1", "p2", "p5"])
        let substring = SearchStrategies.all.filter { $0.family == .substring }
        #expect(substring.count >= 9, "the registry's substring strategies")
        for strategy in substring {
            let outcome = try journal.run(["search", "--strategy", strategy.name, "--json", "--", "-v"])
            #expect(outcome.status == 0, "\(strategy.name): \(outcome.error)")
            #expect(try outcome.json()["query"] as? String == "-v", "\(strategy.name)")
            #expect(try ids(outcome) == holding, "\(strategy.name)")
        }
        // A word strategy reads the query's own syntax after --: -word leaves a word out.
        let prefix = try journal.run(["search", "--json", "--", "the", "-again"])
        #expect(try prefix.json()["query"] as? String == "the -again")
        #expect(try ids(prefix) == ["p1"])
        // After --, an option's name is text; a second -- is a word of the query.
        let option = try journal.run(["search", "--strategy=contains", "--json", "--", "--limit"])
        #expect(option.status == 0, "\(option.error)")
        #expect(try option.json()["query"] as? String == "--limit")
        let dashes = try journal.run(["search", "--strategy", StrategyID.contains.name, "--json", "--", "--"])
        #expect(try dashes.json()["query"] as? String == "--")
        // Before --, an unknown option is still refused, saying how to search for it.
        let unknown = try journal.run(["search", "york", "--limt", "3"])
        #expect(unknown.status == 2 && unknown.error.contains("journal search -- --limt"), "\(unknown.error)")
    }

    @Test func optionsTakeTheirValueAfterEqualsAndTextThatStartsWithADash() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "--date=2024-05-01", "--tag=walk", "first"]).status == 0)
        let refused = try journal.run(["add", "-5 degrees and snow"])
        #expect(refused.status == 2 && refused.error.contains("goes after --"), "\(refused.error)")
        #expect(try journal.run(["add", "--", "-5 degrees and snow"]).status == 0)
        #expect(try journal.run(["edit", "p1", "--text", "- a list item"]).status == 0)
        #expect(try journal.run(["show", "p1"]).output.hasSuffix("- a list item\n"))
        let list = try journal.run(["list", "--limit=1", "--json", "--tag=walk"])
        #expect(try ids(list) == ["p1"])
        let regex = try journal.run(["search", "--regex", "-5 deg", "--json"])
        #expect(try ids(regex) == ["p2"], "\(regex.error)")
        let counted = try journal.run(["stats", "--query", "-degrees", "--json"])
        #expect(try counted.json()["found"] as? Int == 1, "\(counted.error)")
    }

    /// `-o -` is standard output for every command that writes a file; no file named `-` appears.
    @Test func dashForAnOutputFileIsStandardOutput() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try journal.run(["export"])
        let cases: [([String], (String) -> Bool)] = [
            (["export", "-o", "-"], { $0 == plain.output }),
            (["export", "--output=-", "--format", "jsonl"], { $0 == plain.output }),
            (["generate", "--entries", "3", "-o", "-"], { $0.split(separator: "\n").count == 3 }),
            (
                [
                    "compare", "--strategies", StrategyID.prefix.name, "--runs", "1", "--no-build-times", "--format",
                    "json", "-o", "-",
                ],
                { $0.hasPrefix("{") }
            ),
        ]
        for (arguments, check) in cases {
            let outcome = try journal.run(arguments, workingDirectory: folder)
            #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
            #expect(check(outcome.output), "\(arguments): \(outcome.output.prefix(200))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no file named -")
    }

    /// `journal search river -o -` searches for `river` and prints; `-o FILE` and `--output=FILE`
    /// write the same answer to the file (text without colour, or JSON) and nothing to standard
    /// output; after `--`, `-o` is the query's.
    @Test func searchTakesAnOutputFileAroundItsQuery() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for text in ["walked by the river", "river stones, grey", "no water here"] {
            #expect(try journal.run(["add", text]).status == 0)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-search-o-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dash = try journal.run(["search", "--json", "river", "-o", "-"], workingDirectory: folder)
        #expect(dash.status == 0, "\(dash.error)")
        #expect(try dash.json()["query"] as? String == "river")
        #expect(try ids(dash) == ["p1", "p2"])
        let jsonFile = folder.appendingPathComponent("found.json")
        let json = try journal.run(["search", "--json", "--output=\(jsonFile.path)", "river"])
        #expect(json.status == 0 && json.output.isEmpty, "\(json.error)")
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: jsonFile)) as? [String: Any])
        #expect(written["query"] as? String == "river" && written["total"] as? Int == 2)
        let textFile = folder.appendingPathComponent("found.txt")
        let text = try journal.run(["search", "river", "-o", textFile.path])
        #expect(text.status == 0 && text.output.isEmpty, "\(text.error)")
        let lines = try String(contentsOf: textFile, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "two entries and the summary: \(lines)")
        #expect(lines.prefix(2).allSatisfy { $0.contains("river") } && !lines.contains { $0.contains("\u{1B}") })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["found.json", "found.txt"])
        // A word left out that starts with o is still one: `-orange` is not `-o range`.
        let leftOut = try journal.run(["search", "--json", "river", "-orange"], workingDirectory: folder)
        #expect(try leftOut.json()["query"] as? String == "river -orange", "\(leftOut.error)")
        let missing = try journal.run(["search", "river", "-o"])
        #expect(missing.status == 2 && missing.error.contains("-o needs a file"), "\(missing.error)")
        let quoted = try journal.run(["search", "--strategy", StrategyID.contains.name, "--json", "--", "-o"])
        #expect(try quoted.json()["query"] as? String == "-o", "\(quoted.error)")
        let interactive = try journal.run(["search", "--interactive", "-o", textFile.path])
        #expect(interactive.status == 2 && interactive.error.contains("drop -o"), "\(interactive.error)")
    }

    /// `-o` to a file that is not a regular one (a FIFO here; `/dev/null` alike) writes into it
    /// and leaves it what it was: renaming a finished file over it would replace it.
    @Test func anOutputThatIsNotARegularFileIsWrittenIntoNotReplaced() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo.path]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try reader.run()
        let exported = try journal.run(["export", "--format", "jsonl", "-o", fifo.path])
        #expect(exported.status == 0, "\(exported.error)")
        let received = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(received == (try journal.run(["export", "--format", "jsonl"]).output))
        var info = stat()
        #expect(stat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out"], "no file beside it")
    }

    /// `--on-this-day` takes a day after `=`, or as the next argument where nothing else could
    /// take it (`list`): in `search` the next argument stays the query's.
    @Test func onThisDayTakesItsDayAfterEqualsAndLeavesTheNextArgumentToTheQuery() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let utc = ["TZ": "UTC"]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.dateComponents([.year, .month, .day], from: Date())
        let day = String(format: "%02d-%02d", today.month!, today.day!)
        let lastYear = "\(today.year! - 1)-\(day)"
        for text in ["coffee with Ana", "tea alone"] {
            #expect(try journal.run(["add", "--date", "\(lastYear)T10:00:00Z", text], environment: utc).status == 0)
        }
        #expect(
            try journal.run(["add", "--date", "2020-01-10T10:00:00Z", "coffee in January"], environment: utc).status
                == 0)
        #expect(
            try journal.run(["add", "--date", "2021-01-10T10:00:00Z", "tea in January"], environment: utc).status == 0)
        let cases: [([String], Set<String>)] = [
            (["search", "--on-this-day", "coffee"], ["p1"]),
            (["search", "coffee", "--on-this-day"], ["p1"]),
            (["search", "--on-this-day=2022-01-10", "coffee"], ["p3"]),
            (["search", "tea", "--on-this-day=2022-01-10"], ["p4"]),
            (["list", "--on-this-day=2022-01-10"], ["p3", "p4"]),
            (["list", "--on-this-day"], ["p1", "p2"]),
        ]
        for (arguments, expected) in cases {
            let outcome = try journal.run(arguments + ["--json"], environment: utc)
            #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
            #expect(try ids(outcome) == expected, "\(arguments)")
        }
        // A day as the next argument is taken where nothing else can take it (list)...
        let separate = try journal.run(["list", "--on-this-day", "2022-01-10", "--json"], environment: utc)
        #expect(separate.status == 0, "\(separate.error)")
        #expect(try ids(separate) == ["p3", "p4"])
        #expect(separate.error.isEmpty, "\(separate.error)")
        let stored = try journal.run(
            ["--store", journal.store.path, "tags", "--on-this-day", "2022-01-10"], environment: utc)
        #expect(stored.status == 0, "\(stored.error)")
        // ...and not where it could be the query: the command says how to give it.
        let searched = try journal.run(["search", "--on-this-day", "2022-01-10", "--json"], environment: utc)
        #expect(searched.error.contains("--on-this-day=2022-01-10"), "\(searched.error)")
        // After --, --on-this-day is text.
        let literal = try journal.run(
            ["search", "--strategy", StrategyID.contains.name, "--json", "--", "--on-this-day"], environment: utc)
        #expect(try literal.json()["query"] as? String == "--on-this-day")
    }

    /// The commands that take the day after a bare `--on-this-day` as its value are exactly
    /// those with that option and no argument of their own, as the parser's own description
    /// of the commands (`--experimental-dump-help`) lists them.
    @Test func theCommandsThatTakeANextDayAreThoseWithNoArgument() throws {
        let dump = try JournalProcess().run(["--experimental-dump-help"], useStore: false)
        let tool = try dump.json()
        let commands = try #require((tool["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        var withoutArguments: Set<String> = []
        for command in commands {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let names = arguments.map { (($0["names"] as? [[String: Any]])?.first?["name"] as? String) ?? "" }
            guard names.contains("on-this-day") else { continue }
            if !arguments.contains(where: { $0["kind"] as? String == "positional" }) {
                withoutArguments.insert(command["commandName"] as? String ?? "")
            }
        }
        #expect(withoutArguments == OptionalValueArguments.commandsWithoutArguments)
    }

    /// The variables the README and `--help` name for a journal's passphrase serve for creating
    /// and encrypting a journal and for an encrypted export too; a change of passphrase wants
    /// the new one named apart.
    @Test func theOnePassphraseVariableServesEveryCommandButAChangeOfPassphrase() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let secret = journal.store.appendingPathExtension("passphrase")
        try Data("one variable for everything\n".utf8).write(to: secret)
        let only = ["JOURNAL_PASSPHRASE_FILE": secret.path]
        let noTerminal = ["/usr/bin/setsid", "--wait"]
        let created = try journal.run(
            ["init", "--encrypt", "--kdf", "interactive"], environment: only, launcher: noTerminal)
        #expect(created.status == 0, "\(created.error)")
        #expect(try journal.run(["add", "a secret entry"], environment: only).status == 0)
        #expect(try journal.run(["decrypt"], environment: only).status == 0)
        let encrypted = try journal.run(["encrypt", "--kdf", "interactive"], environment: only, launcher: noTerminal)
        #expect(encrypted.status == 0, "\(encrypted.error)")
        #expect(try journal.run(["list", "--json"], environment: only).json()["total"] as? Int == 1)
        let export = journal.store.appendingPathExtension("age")
        defer { try? FileManager.default.removeItem(at: export) }
        let exported = try journal.run(
            ["export", "--encrypt", "-o", export.path], environment: only, launcher: noTerminal)
        #expect(exported.status == 0, "\(exported.error)")
        #expect(try Data(contentsOf: export).starts(with: Data("age-encryption.org/v1\n".utf8)))
        // A change of passphrase never takes the current one as the new one.
        let change = try journal.run(["passphrase"], environment: only, launcher: noTerminal)
        #expect(change.status == 1 && change.error.contains("JOURNAL_NEW_PASSPHRASE_FILE"), "\(change.error)")
        // The NEW variables, when set, come first.
        let other = journal.store.appendingPathExtension("other")
        defer { try? FileManager.default.removeItem(at: other) }
        try Data("another passphrase\n".utf8).write(to: other)
        #expect(try journal.run(["decrypt"], environment: only).status == 0)
        let both = only.merging(["JOURNAL_NEW_PASSPHRASE_FILE": other.path]) { $1 }
        #expect(try journal.run(["encrypt", "--kdf", "interactive"], environment: both).status == 0)
        #expect(try journal.run(["list"], environment: only).status == 1, "the old passphrase no longer opens it")
        #expect(try journal.run(["list"], environment: ["JOURNAL_PASSPHRASE_FILE": other.path]).status == 0)
    }

    @Test func versionAndHelpAnswerWithoutAJournal() throws {
        let version = try JournalProcess().run(["--version"], useStore: false)
        #expect(version.status == 0 && version.output.hasPrefix("journal "), "\(version.error)")
        let help = try JournalProcess().run(["search", "--help"], useStore: false)
        #expect(help.status == 0 && help.output.hasPrefix("OVERVIEW: Search the journal") && help.error.isEmpty)
        let unknown = try JournalProcess().run(["--versoin"], useStore: false)
        #expect(unknown.status == 2 && unknown.output.isEmpty && unknown.error.split(separator: "\n").count == 1)
    }

    /// A usage error points at the help of the command it is about, in its one line, or, for
    /// a value that starts with a dash given as the next argument, at `=`.
    @Test func aUsageErrorNamesTheHelpOfItsCommand() throws {
        let cases: [([String], String)] = [
            (["search", "--limit", "abc", "the"], "(see 'journal search --help')"),
            (["import", "--status", "file.jsonl"], "(see 'journal import --help')"),
            (["tag", "add"], "(see 'journal tag --help')"),
            (["frobnicate"], "(see 'journal --help')"),
            (["search", "--limit", "-1", "the"], "after =, as in --limit=-1)"),
            (["search", "--limit=-1", "the"], "not -1 (see 'journal search --help')"),
        ]
        for (arguments, hint) in cases {
            let outcome = try JournalProcess().run(arguments, useStore: false)
            #expect(outcome.status == 2, "\(arguments): \(outcome.error)")
            #expect(outcome.error.hasSuffix("\(hint)\n"), "\(arguments): \(outcome.error)")
            #expect(outcome.error.split(separator: "\n").count == 1, "\(arguments): \(outcome.error)")
        }
    }

    /// Every table in a command's help keeps each row on its own lines in an 80-column
    /// terminal: a row indented in the source is a whole line of the help.
    @Test func helpTablesKeepTheirRowsAt80Columns() throws {
        let commands = [JournalCommand.self] + JournalCommand.configuration.subcommands
        for command in commands {
            let rows = command.configuration.discussion.split(separator: "\n").filter { $0.hasPrefix("  ") }
            guard !rows.isEmpty else { continue }
            let name = command.configuration.commandName ?? "journal"
            let arguments = command == JournalCommand.self ? ["--help"] : [name, "--help"]
            let help = try JournalProcess().run(arguments, environment: ["COLUMNS": "80"], useStore: false)
            let lines = Set(help.output.split(separator: "\n"))
            for row in rows {
                #expect(lines.contains(row), "journal \(name) --help breaks the row \"\(row)\"")
            }
        }
    }

    /// Every variable the command and its library read (an `environment["NAME"]`, or a name
    /// `JOURNAL_…` written out) is named in `journal --help`, but HOME and PATH.
    @Test func everyVariableTheCommandReadsIsNamedInItsHelp() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var read = Set<String>()
        for folder in ["JournalCLI", "JournalKit"] {
            let files = try #require(
                FileManager.default.enumerator(atPath: sources.appendingPathComponent(folder).path))
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(
                    contentsOf: sources.appendingPathComponent(folder).appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: /environment\["([A-Z_]+)"\]|"(JOURNAL_[A-Z_]+)"/) {
                    read.insert(String(match.1 ?? match.2 ?? ""))
                }
            }
        }
        read.subtract(["HOME", "PATH"])
        #expect(
            read.isSuperset(of: ["JOURNAL_STORE", "JOURNAL_PASSPHRASE_FILE", "NO_COLOR"]),
            "the scan finds the variables")
        let help = try JournalProcess().run(["--help"], useStore: false).output
        for name in read.sorted() {
            #expect(help.contains(name), "journal --help does not name $\(name)")
        }
    }
}
