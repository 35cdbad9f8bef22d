import ArgumentParser
import Foundation
import JournalKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the journal, newest first.",
        discussion: """
            By default the query's words are found as word prefixes in any order ("bru cre" finds \
            "Crème brûlée"), ignoring case and diacritics, in every language ICU can split into \
            words. Several arguments form one query. Other strategies (`--strategy list`) find the \
            query as a substring, with or without folding; every character of the query is \
            literal in all of them. --regex takes a real regular expression (ICU syntax) instead.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(help: ArgumentHelp("How to search: a name from `--strategy list`.", valueName: "NAME"))
    var strategy: String?

    @Option(help: ArgumentHelp("Find a regular expression (ICU syntax) in the text as written.", valueName: "PATTERN"))
    var regex: String?

    @Flag(name: [.customShort("i"), .customLong("ignore-case")], help: "With --regex: ignore case.")
    var ignoreCase = false

    @OptionGroup var page: PageOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "What to look for.")
    var query: [String] = []

    func validate() throws {
        if regex != nil && !query.isEmpty { throw ValidationError("give either a query or --regex PATTERN, not both") }
        if regex != nil && strategy != nil { throw ValidationError("--regex is its own way of searching: drop --strategy") }
        if ignoreCase && regex == nil { throw ValidationError("-i goes with --regex (every strategy states its own folding)") }
    }

    func run() throws {
        if strategy == "list" { return listStrategies() }
        let request = try page.request()
        let filter = try filters.filter()
        let started = DispatchTime.now()
        let results: SearchResults
        let highlighter: MatchHighlighter
        if let regex {
            let journal = try self.journal.openJournal()
            results = try journal.search(regex: regex, caseInsensitive: ignoreCase, page: request, filter: filter)
            highlighter = MatchHighlighter(query: try SearchQuery(regex), highlighting: .none)
        } else {
            let strategy = try strategy.map(SearchStrategies.named) ?? SearchStrategies.standard
            let query = try SearchQuery(self.query.joined(separator: " "))
            try strategy.validate(query)
            let journal = try self.journal.openJournal(prefixTable: .mapped)
            let building = ProgressBar(label: "building the \(strategy.name) index")
            results = try journal.search(query.text, strategy: strategy, page: request, filter: filter, progress: building.handler)
            building.finish()
            highlighter = MatchHighlighter(query: query, highlighting: strategy.highlighting)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        if output.json {
            JSONOutput.print(JSONOutput.search(results, seconds: elapsed))
            return
        }
        let terminal = Terminal.standardOutput
        for entry in results.entries {
            print(EntryRendering.line(entry, highlights: highlighter.ranges(in: entry.text), terminal: terminal))
        }
        print(
            terminal.dim(
                EntryRendering.summary(shown: results.entries.count, total: results.total, offset: request.offset)
                    + " · \(results.strategy) · \(Formatting.milliseconds(elapsed))"))
    }

    private func listStrategies() {
        let width = SearchStrategies.all.map(\.name.count).max() ?? 0
        for strategy in SearchStrategies.all {
            let name = strategy.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let alias = strategy.alias == strategy.name ? "" : " (\(strategy.alias))"
            print("\(name)  \(strategy.family.rawValue): \(strategy.summary)\(alias)")
        }
    }
}
