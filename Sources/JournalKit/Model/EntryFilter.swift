/// Which entries a list or a search may return: those dated in a span, on this day of earlier
/// years, having every one of some tags, starred. Filters restrict every strategy's entries before
/// paging and never change which entries a strategy finds among those that pass; the total counts
/// what passes.
public struct EntryFilter: Sendable, Equatable, Codable {
    /// The first instant an entry may be dated at, or nil.
    public var from: JournalDate?
    /// The instant entries must be dated before, or nil.
    public var until: JournalDate?
    /// Canonical tag names an entry must all have.
    public private(set) var tags: [String]
    /// Whether only starred entries pass.
    public var starred: Bool
    /// When given, only entries dated on its month and day in an earlier year pass.
    public var onThisDay: OnThisDay?

    /// A filter; `tags` as a user spells them (`#Café`), stored by canonical name.
    public init(
        from: JournalDate? = nil, until: JournalDate? = nil, tags: [String] = [], starred: Bool = false,
        onThisDay: OnThisDay? = nil
    ) throws(JournalError) {
        self.from = from
        self.until = until
        self.tags = try NewEntry.tagNames(tags)
        self.starred = starred
        self.onThisDay = onThisDay
    }

    /// The filter every entry passes.
    public static let none = EntryFilter(unchecked: ())

    private init(unchecked: Void) {
        tags = []
        starred = false
    }

    /// Whether every entry passes.
    public var isEmpty: Bool { from == nil && until == nil && tags.isEmpty && !starred && onThisDay == nil }

    /// The filter as terms of a query, all of which an entry must meet: `--from`, `--to` and
    /// `--on` a date span (`from:`, `to:`, `on:`), `--tag` each tag exactly, `--starred`
    /// `is:starred`, `--on-this-day` `on:this-day`.
    public var terms: [QueryTerm] {
        var terms: [QueryTerm] = []
        if from != nil || until != nil { terms.append(.dated(from: from, until: until)) }
        if let onThisDay { terms.append(.onThisDay(onThisDay)) }
        if starred { terms.append(.starred) }
        terms += tags.map(QueryTerm.exactTag)
        return terms
    }
}
