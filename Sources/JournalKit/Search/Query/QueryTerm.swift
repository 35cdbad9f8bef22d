/// A query of the word-prefix family, parsed: a tree of conditions on entries that the
/// word-prefix strategies answer. ``SearchQuery/plan()`` gives it; <doc:SearchSemantics>
/// defines each condition.
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
    /// The entry is starred.
    case starred
    /// The entry is dated at or after `from` and before `until` (either open).
    case dated(from: JournalDate?, until: JournalDate?)
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
        case .starred: "is:starred"
        case .dated(let from, let until): "dated[\(from?.iso8601 ?? "…"), \(until?.iso8601 ?? "…"))"
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
        case .tag, .starred, .dated: break
        case .all(let terms), .any(let terms): for term in terms { term.collect(positive: positive, into: &found) }
        case .not(let term): term.collect(positive: !positive, into: &found)
        }
    }
}
