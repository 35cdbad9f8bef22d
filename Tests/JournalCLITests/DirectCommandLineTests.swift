import ArgumentParser
import Testing

@testable import JournalCLI

/// The command lines read without swift-argument-parser (`DirectCommandLine`) give exactly what
/// the full parser gives, on every option of `search` and `list`: the same values, or nothing
/// (the full parser then reads them, and says what is wrong as it always has). Checked on every
/// command line of up to three pieces drawn from a pool of options, values and words, right and
/// wrong, and on the common ones, which must be read directly.
@Suite struct DirectCommandLineTests {
    /// What the full parser gives for `arguments`: the command and its values, or nil when it
    /// refuses them or parses another command.
    private static func full(_ arguments: [String]) -> DirectCommandLine.Command? {
        do {
            var command = try JournalCommand.parseAsRoot(arguments)
            if let search = command as? SearchCommand { return .search(search.journal.location, search.values) }
            if let list = command as? ListCommand { return .list(list.journal.location, list.values) }
            // swift-argument-parser's help command shows its screen when run, as the command does.
            if "\(type(of: command))" == "HelpCommand" { try command.run() }
            return nil
        } catch {
            let message = JournalCommand.fullMessage(for: error)
            if message == JournalCommand.configuration.version { return .version }
            // A help screen: the command whose help it is, word for word.
            guard JournalCommand.exitCode(for: error) == .success else { return nil }
            return helpScreens.first { $0.screen == message }.map { .help($0.command) }
        }
    }

    /// Every command's help screen as the full parser renders it for `--help`.
    private static let helpScreens: [(command: any ParsableCommand.Type, screen: String)] =
        ([JournalCommand.self] + JournalCommand.configuration.subcommands).map { command in
            let name = command == JournalCommand.self ? [] : [command.configuration.commandName ?? ""]
            do {
                var parsed = try JournalCommand.parseAsRoot(name + ["--help"])
                try parsed.run()
                return (command, "")
            } catch {
                return (command, JournalCommand.fullMessage(for: error))
            }
        }

    /// Pieces of a command line: an option with its value in each form, a flag, a word.
    private static let searchPieces: [[String]] = [
        ["word"], ["two words"], ["-work"], ["-5"], ["-"], ["--"], ["-o", "out.txt"], ["-o"], ["-x"], ["-ih"],
        ["-i"], ["--ignore-case"], ["--interactive"], ["--json"], ["--json=true"], ["-h"], ["--help"],
        ["--limit", "5"], ["--limit=5"], ["--limit", "-1"], ["--limit", "x"], ["--limit"], ["--limit="],
        ["--offset", "2"],
        ["--sort", "relevance"], ["--sort=oldest"], ["--sort", "bad"], ["--strategy", "token"], ["--strategy=list"],
        ["--regex", "a.b"], ["--regex", "-x"], ["--regex=[0-9]"], ["--from", "2024"], ["--to=may"], ["--on", "2023"],
        ["--tag", "trip"], ["--tag=café"], ["--tag", "#"], ["--starred"], ["--starred=yes"], ["--on-this-day=today"],
        ["--on-this-day=2024-05-01"], ["--on-this-day"], ["--output", "f.txt"], ["--out=f.txt"], ["--output", "-"],
        ["--output="], ["--foo"], ["--foo=bar"], ["--store", "S"],
    ]

    private static let prefixes: [[String]] = [
        [], ["--store", "/tmp/s"], ["--store=/tmp/s"], ["-j", "work"], ["--journal=work"], ["--journal", "work"],
        ["--store"], ["--store", "-x"], ["-x"],
    ]

    /// Every command line of `command` and up to two pieces, then `sampled` more of three to
    /// five pieces drawn at random (the same every run).
    private static func commandLines(_ command: String, pieces: [[String]], sampled: Int) -> [[String]] {
        var lines: [[[String]]] = [[]] + pieces.map { [$0] }
        lines += pieces.flatMap { first in pieces.map { [first, $0] } }
        var generator = SplitMix(seed: 57)
        for _ in 0..<sampled {
            let count = Int(generator.next() % 3) + 3
            lines.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] })
        }
        return lines.map { [command] + $0.flatMap { $0 } }
    }

    /// A small generator of the same numbers from the same seed.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func expectAgreement(_ arguments: [String], _ disagreements: inout [String]) {
        guard let direct = DirectCommandLine.parse(arguments) else { return }
        let full = Self.full(arguments)
        if full != direct {
            disagreements.append("\(arguments): direct \(direct), full \(full.map { "\($0)" } ?? "refused")")
        }
    }

    /// `--help` and `-h`, alone or after a command's name, are read directly and show the help
    /// screen the full parser shows; anything more goes to the full parser.
    @Test func helpIsTheFullParsersScreen() {
        for (command, screen) in Self.helpScreens {
            let name = command == JournalCommand.self ? [] : [command.configuration.commandName ?? ""]
            #expect(!screen.isEmpty && screen.contains("USAGE:"), "\(name)")
            for flag in ["--help", "-h"] {
                let direct = DirectCommandLine.parse(name + [flag])
                #expect(direct == .help(command), "\(name + [flag])")
                #expect(direct == Self.full(name + [flag]), "\(name + [flag])")
                #expect(JournalCommand.helpMessage(for: command) == screen, "\(name)")
            }
        }
        for arguments in [["--help", "search"], ["search", "word", "--help"], ["help"], ["nosuch", "--help"]] {
            #expect(DirectCommandLine.parse(arguments) == nil, "\(arguments)")
        }
    }

    @Test func searchAgreesWithTheFullParser() {
        var disagreements: [String] = []
        var read = 0
        let lines = Self.commandLines("search", pieces: Self.searchPieces, sampled: 500)
        for prefix in Self.prefixes {
            for line in lines where prefix.isEmpty || line.count <= 3 {
                expectAgreement(prefix + line, &disagreements)
                if DirectCommandLine.parse(prefix + line) != nil { read += 1 }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).joined(separator: "\n"))")
        #expect(read > 1_000, "read directly: \(read)")
    }

    @Test func listAgreesWithTheFullParser() {
        let pieces = Self.searchPieces.filter { !["-i", "--regex", "--sort", "--strategy"].contains($0[0]) } + [["--"]]
        var disagreements: [String] = []
        for prefix in Self.prefixes {
            for line in Self.commandLines("list", pieces: pieces, sampled: prefix.isEmpty ? 500 : 0)
            where prefix.isEmpty || line.count <= 3 {
                expectAgreement(prefix + line, &disagreements)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    /// What programs and people type most: read directly, and as the full parser reads it.
    @Test(
        arguments: [
            ["search", "word"], ["search", "bru", "cre"], ["search", "--limit", "5", "x"], ["search", "--json", "x"],
            ["--store", "/s", "search", "x"], ["search", "--sort=relevance", "x"], ["search", "--", "-x"],
            ["search", "paris", "-work"], ["search", "--strategy", "contains[n]", "x"], ["search", "--regex", "a+b"],
            ["search", "--from", "2024", "--to", "may", "x"], ["-j", "work", "search", "x"],
            ["search", "-o", "f", "x"], ["search", "--output=f", "x"], ["search", "--tag", "a", "--tag", "b", "x"],
            ["search", "-i", "--regex", "x"], ["list"], ["list", "--limit", "5"], ["list", "--tag", "a", "--tag", "b"],
            ["list", "--on-this-day=today"], ["list", "--json", "--starred"], ["--version"],
        ])
    func aCommonCommandLineIsReadDirectly(_ arguments: [String]) {
        let direct = DirectCommandLine.parse(arguments)
        #expect(direct != nil)
        #expect(direct == Self.full(arguments))
    }
}
