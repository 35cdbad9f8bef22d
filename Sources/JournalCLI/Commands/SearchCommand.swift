import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the journal, newest first.",
        discussion: """
            By default the query's words are found as word prefixes in any order ("bru cre" finds \
            "Crème brûlée"), ignoring case and diacritics, in every language ICU can split into \
            words. Several arguments form one query, read like a search box:

              new york            both words (as prefixes), anywhere in the entry
              "new york"          side by side, the last word a prefix ("new yo" too)
              tokyo OR kyoto      either word
              paris -work         paris, leaving out entries with work
              (tokyo OR kyoto) -"rainy day"
                                  groups; - leaves out a phrase or a group too
              #travel  @travel    the tag travel, or one below it (#travel/japan)
              is:starred          starred entries
              from:2024-05  to:may  on:2016  on:"last month"
                                  dates, as --from, --to and --on read them

            - binds tightest, then OR, then the words side by side (all must hold). Quote a word \
            to search for it as written: "OR", "-v", "#hashtag". The substring strategies \
            (`--strategy list`: contains…, matches…) take the query as it is instead, every \
            character literal; --regex takes a real regular expression (ICU syntax).

            On a terminal (not TERM=dumb), `journal search` with no query (or --interactive, \
            with or without one) opens a full-screen search that follows your typing: results newest first, \
            matched words highlighted, re-run on every key. Keys: ↑/↓ or Ctrl-P/Ctrl-N \
            (Ctrl-K/Ctrl-J) move, PgUp/PgDn page, Enter shows the entry in full (Esc goes \
            back), Tab and Shift-Tab change the strategy, Ctrl-O the order (newest, most relevant, \
            oldest first), Ctrl-U clears the query, Esc or Ctrl-C quits. On the selected entry (or the one shown in full, with e, s, t, d): Ctrl-E edits it \
            in the configured editor, $VISUAL or $EDITOR; Ctrl-S stars or unstars it; Ctrl-T asks for \
            tags (name adds, -name removes); Ctrl-X asks whether to delete it (y deletes). Each is \
            saved at once and the status line says what was done. A phrase whose count takes long \
            shows its newest entries at once and "counting…" until its total comes. The filters and \
            --strategy apply.
            """)

    @ParentCommand var journal: JournalCommand

    @Option(
        help: ArgumentHelp(
            "How to search: a name from `--strategy list` (default: the configuration's strategy, else prefix).",
            valueName: "NAME"))
    var strategy: String?

    @Option(
        help: ArgumentHelp(
            "The order of the results: newest (the default, or the configuration's sort), oldest, or relevance (BM25 over the query's words; token and prefix).",
            valueName: "ORDER"))
    var sort: SearchOrder?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Find a regular expression (ICU syntax) in the text as written.", valueName: "PATTERN"))
    var regex: String?

    @Flag(name: [.customShort("i"), .customLong("ignore-case")], help: "With --regex: ignore case.")
    var ignoreCase = false

    @Flag(help: "Search as you type, full screen (the default on a terminal when no query is given).")
    var interactive = false

    @OptionGroup var page: PageOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions
    /// Where the results go, as `export`'s `-o`. The short `-o FILE` is taken from ``arguments``
    /// (``SearchArguments``): declared to the parser, it would read `-orange`, a word left
    /// out, as `-o range`.
    @Option(
        name: [.customLong("output"), .customLong("out")],
        help: ArgumentHelp(
            "Write to FILE (whole, or not at all) instead of standard output; - is standard output. Also -o FILE.",
            valueName: "FILE"))
    var outputFile: OutputDestination?

    /// Every argument no option took, in order, the end of options (`--`) among them: so that
    /// `-work` reaches the query as a word to leave out rather than failing as an option.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "What to look for (`-word` leaves a word out; see the table above). After --, every argument is the query's.",
            valueName: "query"))
    var arguments: [String] = []

    /// The values given, whoever read them (``SearchArguments``).
    var values: SearchArguments {
        SearchArguments(
            strategy: strategy, sort: sort, regex: regex, ignoreCase: ignoreCase, interactive: interactive,
            page: page.values, filters: filters.values, json: output.json, outputFile: outputFile, arguments: arguments)
    }

    func validate() throws { try values.validate() }

    func run() throws { try values.run(in: journal.location) }
}

extension SearchOrder: ExpressibleByArgument {}

extension SearchCommand: ServedCommand {
    static let positionalKey: String? = "query"

    func answer(in journal: Journal) throws -> JSONValue { try values.answer(in: journal) }
}
