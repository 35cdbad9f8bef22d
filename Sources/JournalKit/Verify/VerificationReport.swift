/// What `journal verify` found: nothing, or one line per problem (the first few of each kind).
public struct VerificationReport: Sendable, Equatable, Codable {
    /// The entries checked.
    public let entries: Int
    /// What disagrees, a line each (a few examples of each kind), or nothing.
    public let problems: [String]
    /// Whether pages of the main store, which holds the entries themselves, are damaged: what
    /// rebuilding the derived stores cannot repair (the other problems it can).
    public var entriesDamaged = false
    /// What the main store lost of what the search store applied (damaged, or restored from an
    /// older copy), nil when it lost nothing: entries `journal reindex` would forget, which
    /// only a backup of the main store brings back.
    public var lostEntries: LostEntries?
    /// Whether everything agrees with the entries.
    public var isConsistent: Bool { problems.isEmpty }
}
