import ArgumentParser
import Foundation
import JournalKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the journal, newest first.",
        discussion: """
            The query's words are found as word prefixes in any order ("bru cre" finds "Crème
            brûlée"), ignoring case and diacritics, in every language ICU can split into words.
            `--strategy list` lists the strategies. Several arguments form one query.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(help: ArgumentHelp("How to search: a name from `--strategy list`.", valueName: "NAME"))
    var strategy: String = SearchStrategies.standard.name

    @OptionGroup var page: PageOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "What to look for.")
    var query: [String] = []

    func run() throws {
        if strategy == "list" { return listStrategies() }
        let strategy = try SearchStrategies.named(self.strategy)
        let query = self.query.joined(separator: " ")
        try strategy.family.validate(SearchQuery(query))
        let request = try page.request()
        let journal = try self.journal.openJournal()
        let started = DispatchTime.now()
        let results = try journal.search(query, strategy: strategy, page: request)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        if output.json {
            JSONOutput.print(JSONOutput.search(results, seconds: elapsed))
            return
        }
        let terminal = Terminal.standardOutput
        let highlighter = strategy.family == .wordPrefix ? try WordPrefixHighlighter(query: SearchQuery(query)) : nil
        for entry in results.entries {
            print(EntryRendering.line(entry, highlights: highlighter?.ranges(in: entry.text) ?? [], terminal: terminal))
        }
        print(terminal.dim(EntryRendering.summary(shown: results.entries.count, total: results.total, offset: request.offset)
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
