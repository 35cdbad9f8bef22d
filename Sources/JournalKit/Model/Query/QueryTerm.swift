/// A query, parsed: a tree of conditions on entries. The word-prefix syntax reads a query's
/// text into one (``SearchQuery/term()``), and the filters beside it are terms of the same kind
/// (``EntryFilter/terms``); <doc:SearchSemantics> defines each condition.
///
/// ```swift
/// let query = try SearchQuery(#""new york" OR tokyo -#work"#)
/// // .all([.any([.phrase(["new", "york"]), .word("tokyo")]), .not(.tag("work"))])
/// ```
public indirect enum QueryTerm: Sendable, Hashable, CustomStringConvertible {
    /// Some token of the entry starts with this canonical word.
    case word(String)
    /// These canonical words (two or more) stand side by side in the entry's words, each but
    /// the last equal to its word and the last a prefix.
    case phrase([String])
    /// The entry has this tag (a canonical name), or one below it (`travel/japan` for `travel`).
    case tag(String)
    /// The entry has this very tag (a canonical name): what `--tag` asks for.
    case exactTag(String)
    /// The entry is starred.
    case starred
    /// The entry is dated at or after `from` and before `until` (either open).
    case dated(from: JournalDate?, until: JournalDate?)
    /// The entry is dated on this day's month and day in an earlier year, back to the year of
    /// the journal's earliest entry: which years that is, the search learns when it is planned.
    case onThisDay(OnThisDay)
    /// Every one of these holds.
    case all([QueryTerm])
    /// At least one of these holds.
    case any([QueryTerm])
    /// This does not hold.
    case not(QueryTerm)

    /// The term in a compact prefix notation, for messages and tests: `(and (or "new york" tokyo) (not #work))`.
    public var description: String {
        switch self {
        case .word(let word): word
        case .phrase(let words): "\"" + words.joined(separator: " ") + "\""
        case .tag(let name): "#" + name
        case .exactTag(let name): "tag=" + name
        case .starred: "is:starred"
        case .dated(let from, let until): "dated[\(from?.iso8601 ?? "…"), \(until?.iso8601 ?? "…"))"
        case .onThisDay(let day): String(format: "on-this-day[%02d-%02d]", day.month, day.day)
        case .all(let terms): "(and " + terms.map(\.description).joined(separator: " ") + ")"
        case .any(let terms): "(or " + terms.map(\.description).joined(separator: " ") + ")"
        case .not(let term): "(not \(term))"
        }
    }

    /// The words and phrases that must be present for the term to hold (not those left out),
    /// each once, in the order they are written: what a match highlights.
    public var wanted: [QueryTerm] {
        var found: [QueryTerm] = []
        collect(positive: true, into: &found)
        return found
    }

    private func collect(positive: Bool, into found: inout [QueryTerm]) {
        switch self {
        case .word, .phrase:
            if positive, !found.contains(self) { found.append(self) }
        case .tag, .exactTag, .starred, .dated, .onThisDay: break
        case .all(let terms), .any(let terms): for term in terms { term.collect(positive: positive, into: &found) }
        case .not(let term): term.collect(positive: !positive, into: &found)
        }
    }
}
