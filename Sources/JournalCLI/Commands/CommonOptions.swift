import ArgumentParser
import Foundation
import JournalKit

/// --limit and --offset, for the commands that page through entries newest first.
struct PageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Show at most N entries (0: all). (default: 20)", valueName: "limit"))
    var limit: Int?

    @Option(help: ArgumentHelp("Skip the first N entries. (default: 0)", valueName: "offset"))
    var offset: Int?

    /// The values given.
    var values: PageValues { PageValues(limit: limit, offset: offset) }

    /// Whether the command line asked for a page, rather than the default one.
    var isGiven: Bool { values.isGiven }

    func validate() throws { try values.validate() }

    func request(order: SearchOrder = .newest) throws -> PageRequest { try values.request(order: order) }
}

/// The values of --limit and --offset, whoever read them, and what they mean.
struct PageValues: Equatable {
    var limit: Int?
    var offset: Int?

    /// Whether the command line asked for a page, rather than the default one.
    var isGiven: Bool { limit != nil || offset != nil }

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 (all) or more, not \(limit)") }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more, not \(offset)") }
    }

    func request(order: SearchOrder = .newest) throws -> PageRequest {
        try PageRequest(limit: limit ?? 20, offset: offset ?? 0, order: order)
    }
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

/// --from, --to, --on, --tag and --starred: which entries `list` and `search` may show.
struct FilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only entries dated at or after the start of DATE (a day, a month, a year, or an instant).",
            valueName: "DATE"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "Only entries dated at or before the end of DATE: `--to may` takes all of May.", valueName: "DATE"))
    var to: String?

    @Option(help: ArgumentHelp("Only entries dated within DATE: --from DATE --to DATE.", valueName: "DATE"))
    var on: String?

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp("Only entries with this tag (repeatable: all of them).", valueName: "NAME"))
    var tags: [String] = []

    @Flag(help: "Only starred entries.")
    var starred = false

    @Option(
        name: .customLong("on-this-day"), defaultAsFlag: "today", parsing: .next,
        help: ArgumentHelp(
            "Only entries of today's month and day in earlier years, or DATE's with --on-this-day=DATE (a DATE is given after =, never as the next argument); 29 February looks at 28 February in other years.",
            valueName: "DATE"))
    var onThisDay: String? = nil

    /// The values given.
    var values: FilterValues {
        FilterValues(from: from, to: to, on: on, tags: tags, starred: starred, onThisDay: onThisDay)
    }

    func validate() throws { try values.validate() }

    /// Whether any filter is given.
    var isGiven: Bool { values.isGiven }

    /// The filters as given, for a status line: "#cooking · starred · from may".
    var summary: String { values.summary }

    /// The filter, its dates read as people type them in the local time zone.
    func filter() throws -> EntryFilter { try values.filter() }
}

/// The values of --from, --to, --on, --tag, --starred and --on-this-day, whoever read them, and
/// the filter they make.
struct FilterValues: Equatable {
    var from: String?
    var to: String?
    var on: String?
    var tags: [String] = []
    var starred = false
    var onThisDay: String?

    func validate() throws {
        guard on == nil || (from == nil && to == nil) else {
            throw ValidationError("--on can't be combined with --from or --to")
        }
        do { _ = try NewEntry.tagNames(tags) } catch { throw ValidationError(error.message) }
    }

    /// Whether any filter is given.
    var isGiven: Bool { from != nil || to != nil || on != nil || !tags.isEmpty || starred || onThisDay != nil }

    /// The filters as given, for a status line: "#cooking · starred · from may".
    var summary: String {
        var parts = tags.map { $0.hasPrefix("#") ? $0 : "#" + $0 }
        if starred { parts.append("starred") }
        if let on { parts.append("on \(on)") }
        if let from { parts.append("from \(from)") }
        if let to { parts.append("to \(to)") }
        if let onThisDay { parts.append(onThisDay == "today" ? "on this day" : "on the day of \(onThisDay)") }
        return parts.joined(separator: " · ")
    }

    /// The filter, its dates read as people type them in the local time zone.
    func filter() throws -> EntryFilter {
        let from = try (on ?? self.from).map { text throws(JournalError) in try DatePhrase(text).start }
        let until = try (on ?? to).map { text throws(JournalError) in try DatePhrase(text).end }
        let day = try onThisDay.map { text throws(JournalError) in OnThisDay(try DatePhrase(text).start) }
        return try EntryFilter(from: from, until: until, tags: tags, starred: starred, onThisDay: day)
    }
}

/// --query and the filters: the entries a command counts or acts on, as `journal search`
/// finds them (every entry that passes the filters when there is no query).
struct FoundEntries: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Only the entries this query finds (journal search's syntax), within the filters.", valueName: "QUERY"))
    var query: String?

    @OptionGroup var filters: FilterOptions

    /// Whether a query or a filter is given.
    var isGiven: Bool { query != nil || filters.isGiven }

    /// The query within the filters, read once; the filters alone without `--query`.
    func searchQuery() throws -> SearchQuery {
        let filter = try filters.filter()
        return try query.map { text throws(JournalError) in try SearchQuery(text, filter: filter) }
            ?? SearchQuery(filter: filter)
    }

    /// The query and filters as given, for a heading: "“#trip OR japan” · from 2024".
    var summary: String {
        ([query.map { "“\($0)”" }] + [filters.summary]).compactMap { $0 }.filter { !$0.isEmpty }.joined(
            separator: " · ")
    }
}

/// The Argon2id cost a new passphrase is given, by libsodium's names for its levels.
enum KeyDerivationLevel: String, ExpressibleByArgument, CaseIterable {
    case interactive, moderate, sensitive

    var cost: KeyDerivationCost {
        switch self {
        case .interactive: .interactive
        case .moderate: .moderate
        case .sensitive: .sensitive
        }
    }

    /// "3 passes over 256 MiB".
    var summary: String { "\(cost.passes) passes over \(cost.memoryBytes >> 20) MiB" }
}

/// --kdf, for the commands that set a new passphrase's cost.
struct KeyDerivationOptions: ParsableArguments {
    @Option(
        name: .customLong("kdf"),
        help: ArgumentHelp(
            "How hard the passphrase is to guess by force, as Argon2id's cost: interactive (2 passes over 64 MiB), moderate (3 over 256 MiB) or sensitive (4 over 1 GiB).",
            valueName: "level"))
    var level: KeyDerivationLevel = .moderate
}
