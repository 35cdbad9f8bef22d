import JournalText

/// A strategy's identity: its name as the search semantics spell it (`contains[cd]`), as a
/// value that code names by a constant (`.containsCD`) rather than by a string. What the
/// library's, the benchmark's and the tests' calls name a strategy with; the command line reads
/// names (``SearchStrategies/named(_:)``).
///
/// ```swift
/// let results = try journal.search("crème", strategy: SearchStrategies[.containsCD])
/// ```
public struct StrategyID: Sendable, Hashable, CustomStringConvertible {
    /// The name, such as `contains[cd]`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The name.
    public var description: String { name }

    /// `contains`, the needle in the text as written.
    public static let contains = StrategyID.contains(nil)
    /// `contains[c]`, ignoring case.
    public static let containsC = StrategyID.contains(.c)
    /// `contains[d]`, ignoring diacritics.
    public static let containsD = StrategyID.contains(.d)
    /// `contains[cd]`, ignoring both, folded at query time.
    public static let containsCD = StrategyID.contains(.cd)
    /// `contains[n]`, in the canonical text stored at write time.
    public static let containsN = StrategyID("contains[n]")
    /// `matches`, ICU's regular-expression engine with the needle as a literal pattern.
    public static let matches = StrategyID.matches(nil)
    /// `matches[c]`.
    public static let matchesC = StrategyID.matches(.c)
    /// `matches[d]`.
    public static let matchesD = StrategyID.matches(.d)
    /// `matches[cd]`.
    public static let matchesCD = StrategyID.matches(.cd)
    /// `token`, word prefixes as range scans of the search store's token index.
    public static let token = StrategyID("token")
    /// `prefix`, word prefixes through the prefix table: the standard strategy.
    public static let prefix = StrategyID("prefix")
    /// `fts5`, SQLite FTS5: the peer.
    public static let fts5 = StrategyID("fts5")

    /// `contains` with `fold` (none: plain).
    static func contains(_ fold: Fold?) -> StrategyID { StrategyID("contains" + modifier(fold)) }

    /// `matches` with `fold` (none: plain).
    static func matches(_ fold: Fold?) -> StrategyID { StrategyID("matches" + modifier(fold)) }

    private static func modifier(_ fold: Fold?) -> String { fold.map { "[\($0.rawValue)]" } ?? "" }
}
