/// Which entries a list or a search may return: those dated in a span, having every one of
/// some tags, starred. Filters restrict every strategy's entries before paging and never change
/// which entries a strategy finds among those that pass; the total counts what passes.
public struct EntryFilter: Sendable, Equatable, Codable {
    /// The first instant an entry may be dated at, or nil.
    public var from: JournalDate?
    /// The instant entries must be dated before, or nil.
    public var until: JournalDate?
    /// Canonical tag names an entry must all have.
    public private(set) var tags: [String]
    /// Whether only starred entries pass.
    public var starred: Bool

    /// A filter; `tags` as a user spells them (`#Café`), stored by canonical name.
    public init(from: JournalDate? = nil, until: JournalDate? = nil, tags: [String] = [], starred: Bool = false) throws(JournalError) {
        self.from = from
        self.until = until
        self.tags = try NewEntry.tagNames(tags)
        self.starred = starred
    }

    /// The filter every entry passes.
    public static let none = EntryFilter(unchecked: ())

    private init(unchecked: Void) {
        tags = []
        starred = false
    }

    /// Whether every entry passes.
    public var isEmpty: Bool { from == nil && until == nil && tags.isEmpty && !starred }
}
