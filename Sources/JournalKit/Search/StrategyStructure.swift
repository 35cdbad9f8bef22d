/// The structure a strategy needs beyond the entries themselves, and what it costs.
public struct StrategyStructure: Sendable, Equatable {
    /// What it is: "search store (tokens, postings)", "none: every row folded at query time".
    public let description: String
    /// Its size on disk or in memory, when it has one.
    public let bytes: Int?
    /// How long building it from the entries took, measured in this run.
    public let buildSeconds: Double?
    /// Anything else worth knowing (how long loading a table from its file took).
    public let note: String?

    package init(description: String, bytes: Int? = nil, buildSeconds: Double? = nil, note: String? = nil) {
        self.description = description
        self.bytes = bytes
        self.buildSeconds = buildSeconds
        self.note = note
    }

    package static let none = StrategyStructure(description: "none: every row is read at query time")
}
