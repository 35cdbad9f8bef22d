import ArgumentParser
import Foundation
import JournalKit
import TextReport

#if canImport(Glibc)
    import Glibc
#endif

/// What `journal search` was asked, as values (swift-argument-parser's ``SearchCommand`` and
/// ``DirectCommandLine`` read them alike), its checks and its run.
struct SearchArguments: Equatable {
    var strategy: String?
    var sort: SearchOrder?
    var regex: String?
    var ignoreCase = false
    var interactive = false
    var page = PageValues()
    var filters = FilterValues()
    var json = false
    var outputFile: OutputDestination?
    /// Every argument no option took, in order, the end of options (`--`) among them.
    var arguments: [String] = []

    /// --sort, else the configuration file's, else newest first.
    private func chosenOrder() throws -> SearchOrder {
        try sort ?? ConfigurationFile.current.get().sort ?? .newest
    }

    /// --strategy, else the configuration file's, else the standard one.
    private func chosenStrategy() throws -> SearchStrategy {
        if let name = try strategy ?? ConfigurationFile.current.get().strategy {
            return try SearchStrategies.named(name)
        }
        return SearchStrategies.standard
    }

    /// The query's arguments: ``arguments`` without the `--` that ends the options (the first
    /// `--` on a command line is always that one; a later one is a word of the query).
    private var query: [String] {
        var options = Array(arguments.prefix { $0 != "--" })
        if let flag = options.firstIndex(of: "-o") { options.removeSubrange(flag..<min(flag + 2, options.count)) }
        return options + arguments.drop { $0 != "--" }.dropFirst()
    }

    /// The value of `-o` before `--`: the argument after it (nil when absent, "" when missing).
    private var outputArgument: String? {
        let options = arguments.prefix { $0 != "--" }
        guard let flag = options.firstIndex(of: "-o") else { return nil }
        return flag + 1 < options.count ? options[flag + 1] : ""
    }

    /// Whether `-o` or `--output` was given.
    private var outputIsGiven: Bool { outputFile != nil || outputArgument != nil }

    /// Where the results go: `--output`, `-o`, else standard output.
    private var destination: OutputDestination {
        outputFile ?? outputArgument.flatMap(OutputDestination.init(argument:)) ?? .standardOutput
    }

    func validate() throws {
        let beforeEndOfOptions = arguments.prefix { $0 != "--" }
        if let option = beforeEndOfOptions.first(where: {
            $0.hasPrefix("--") && $0.dropFirst(2).first?.isLetter == true
        }) {
            throw ValidationError(
                "unknown option \(option) (to search for it, put it after --: journal search -- \(option))")
        }
        if regex != nil && !query.isEmpty { throw ValidationError("give either a query or --regex PATTERN, not both") }
        if regex != nil && strategy != nil {
            throw ValidationError("--regex is its own way of searching: drop --strategy")
        }
        if ignoreCase && regex == nil {
            throw ValidationError("-i goes with --regex (every strategy states its own folding)")
        }
        if interactive && regex != nil {
            throw ValidationError("--interactive searches as you type with a strategy: drop --regex")
        }
        if interactive && json {
            throw ValidationError("--interactive is for a person at a terminal: drop --json")
        }
        if let value = outputArgument {
            if OutputDestination(argument: value) == nil {
                throw ValidationError("-o needs a file (or - for standard output)")
            }
            if outputFile != nil { throw ValidationError("give -o or --output, not both") }
        }
        if interactive && outputIsGiven {
            throw ValidationError("--interactive draws on the terminal: drop -o")
        }
        if interactive && !Self.onTerminal {
            throw ValidationError("--interactive needs a terminal for its input and output")
        }
        if interactive && page.isGiven {
            throw ValidationError("--interactive pages a screen at a time: drop --limit and --offset")
        }
        if interactive && Self.terminalIsDumb {
            throw ValidationError("--interactive needs a terminal that can move its cursor, and TERM is \"dumb\"")
        }
    }

    /// Standard input and output both a terminal: a person is there to type.
    private static var onTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// TERM says the terminal moves no cursor (as an editor's shell buffer does): a full screen
    /// would be drawn as garbage.
    private static var terminalIsDumb: Bool { ProcessEnvironment.variables["TERM"] == "dumb" }

    /// Whether to open the full-screen search.
    private var runsInteractively: Bool {
        strategy != "list"
            && (interactive
                || (query.isEmpty && regex == nil && !json && !page.isGiven && !outputIsGiven
                    && Self.onTerminal && !Self.terminalIsDumb))
    }

    /// Runs the search on the journal at `location`, as the command does.
    func run(in location: JournalLocation) throws {
        if strategy == "list" { return listStrategies() }
        if runsInteractively { return try searchInteractively(in: location) }
        let (results, highlighter, elapsed) = try found { () throws -> Journal in try location.openJournal() }
        if json {
            try destination.write(JSONOutput.search(results, seconds: elapsed).serialized)
            return
        }
        let (request, terminal) = (results.page, destination.terminal)
        var lines = results.entries.map { entry in
            EntryRendering.line(entry, highlights: highlighter?.ranges(in: entry.text) ?? [], terminal: terminal)
        }
        lines.append(
            terminal.dim(
                EntryRendering.summary(shown: results.entries.count, total: results.total, offset: request.offset)
                    + " · \(results.strategy)"
                    + (request.order == .newest
                        ? "" : " · \(request.order == .oldest ? "oldest" : "most relevant") first")
                    + " · \(Formatting.milliseconds(elapsed))"))
        if let indexing = results.indexing { lines.append(terminal.dim(EntryRendering.indexingNote(indexing))) }
        try destination.write(lines.joined(separator: "\n"))
    }

    /// The search the options ask for, in the journal `opening` opens once the query is known
    /// to be one the strategy takes: the results, what highlights them, and the seconds taken.
    private func found(
        in opening: () throws -> Journal
    ) throws -> (results: SearchResults, highlighter: MatchHighlighter?, seconds: Double) {
        let request = try page.request(order: chosenOrder())
        let filter = try filters.filter()
        if let regex {
            let journal = try opening()
            let started = ContinuousClock.now
            let results = try journal.search(regex: regex, caseInsensitive: ignoreCase, page: request, filter: filter)
            return (results, nil, secondsSince(started))
        }
        let strategy = try chosenStrategy()
        let query = try SearchQuery(self.query.joined(separator: " "), filter: filter)
        try strategy.validate(query)
        let journal = try opening()
        let started = ContinuousClock.now
        let building = ProgressBar(label: "building the \(strategy.name) index")
        let results = try journal.search(query, strategy: strategy, page: request, progress: building.handler)
        building.finish()
        return (results, MatchHighlighter(query: query, highlighting: strategy.highlighting), secondsSince(started))
    }

    private func searchInteractively(in location: JournalLocation) throws {
        let strategy = try chosenStrategy()
        let terminal = try FullScreenTerminal()
        var search = InteractiveSearch(
            journal: try location.openJournal(use: .kept),
            screen: SearchScreen(
                query: query.joined(separator: " "), strategy: strategy,
                order: try chosenOrder(), filter: try filters.filter(),
                filterSummary: filters.summary,
                terminal: .standardOutput, size: terminal.size))
        try search.run(on: terminal)
        // Ended by a signal rather than a key: the shell's convention, 128 + the signal.
        if let signal = terminal.quitSignal { throw ExitCode(128 + signal) }
    }

    private func listStrategies() {
        let width = SearchStrategies.all.map(\.name.count).max() ?? 0
        for strategy in SearchStrategies.all {
            let name = Formatting.padded(strategy.name, to: width)
            let alias = strategy.alias == strategy.name ? "" : " (\(strategy.alias))"
            print("\(name)  \(strategy.family.rawValue): \(strategy.summary)\(alias)")
        }
    }

    /// What the command prints with `--json`, answered from `journal` (for `journal serve`).
    func answer(in journal: Journal) throws -> JSONValue {
        if strategy == "list" || interactive || outputIsGiven {
            throw ValidationError(
                "journal serve answers a search with its JSON: drop --strategy list, --interactive and -o")
        }
        let (results, _, elapsed) = try found { journal }
        return JSONOutput.search(results, seconds: elapsed)
    }
}
