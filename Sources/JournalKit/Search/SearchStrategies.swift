/// Every strategy, by name. A new strategy is one file in `Strategies/` and one line here.
public enum SearchStrategies {
    /// Every strategy, in the order of the ladder: the substring strategies, then the
    /// word-prefix ones, then the `fts5` peer they are measured against.
    public static let all: [SearchStrategy] = [
        ContainsStrategy(fold: nil),
        ContainsStrategy(fold: .c),
        ContainsStrategy(fold: .d),
        ContainsStrategy(fold: .cd),
        StoredCanonicalStrategy(),
        MatchesStrategy(fold: nil),
        MatchesStrategy(fold: .c),
        MatchesStrategy(fold: .d),
        MatchesStrategy(fold: .cd),
        TokenStrategy(),
        PrefixStrategy(),
        FTS5Strategy(),
    ].map(SearchStrategy.init)

    /// The strategy used when none is named.
    public static let standard = SearchStrategy(PrefixStrategy())

    /// The strategy `id`.
    public static subscript(id: StrategyID) -> SearchStrategy {
        guard let strategy = all.first(where: { $0.id == id }) else {
            preconditionFailure("\(id) is not registered in SearchStrategies.all")
        }
        return strategy
    }

    /// Every strategy by its name and by its alias, made once: a process that serves many
    /// requests looks a strategy up for each.
    private static let byName: [String: SearchStrategy] = Dictionary(
        all.flatMap { [($0.name, $0), ($0.alias, $0)] }, uniquingKeysWith: { first, _ in first })

    /// The strategy called `name`, spelled as in the semantics document or with its alias.
    public static func named(_ name: String) throws(JournalError) -> SearchStrategy {
        if let strategy = byName[name] { return strategy }
        let known = all.map(\.name).joined(separator: ", ")
        throw .usage("unknown strategy \"\(name)\" (known: \(known))")
    }
}
