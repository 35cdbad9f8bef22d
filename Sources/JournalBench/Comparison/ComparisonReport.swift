import JournalKit

/// What `journal compare` measured: every strategy on the same journal and queries, warm,
/// side by side, with whether the strategies of each family agree.
public struct ComparisonReport: Sendable {
    /// The journal measured.
    public struct JournalFacts: Sendable {
        /// Entries in the journal.
        public let entries: Int
        /// Distinct tokens in its search store.
        public let tokens: Int
        /// Bytes of `journal.sqlite` and its WAL.
        public let mainStoreBytes: Int
        /// Bytes of `search.sqlite` and its WAL.
        public let searchStoreBytes: Int
    }

    /// One query's answer from one strategy.
    public struct QueryResult: Sendable {
        /// The query.
        public let query: String
        /// The exact total, or nil when the strategy refused or skipped the query.
        public let total: Int?
        /// Every timed run.
        public let seconds: [Double]
        /// Why the strategy refused the query (a usage error), if it did.
        public let refusal: String?

        /// Median of the timed runs.
        public var medianSeconds: Double? { seconds.isEmpty ? nil : LatencySummary(seconds).median }
        /// Not run: the strategy's time budget was spent.
        public var skipped: Bool { total == nil && refusal == nil }
    }

    /// A query on which a strategy's entries differ from its family's reference.
    public struct Disagreement: Sendable {
        /// The query.
        public let query: String
        /// The reference's count.
        public let expected: Int
        /// This strategy's count.
        public let found: Int
        /// Entries the reference has and this strategy lacks, and the other way round.
        public let missing: Int
        /// Entries this strategy has and the reference lacks.
        public let extra: Int
    }

    /// Everything measured of one strategy.
    public struct StrategyResult: Sendable {
        /// The strategy.
        public let id: StrategyID
        /// Its name.
        public var name: String { id.name }
        /// Its family.
        public let family: SearchFamily
        /// Strategies with the same equivalence are meant to return the same entries.
        public let equivalence: String
        /// How it finds entries, in one line.
        public let summary: String
        /// Over every timed run of every query it answered.
        public let latency: LatencySummary
        /// Its answer to every query.
        public let queries: [QueryResult]
        /// The family's reference strategy its entry sets are compared with (nil for the reference).
        public let reference: StrategyID?
        /// Queries answered with the same entries as the reference, out of those both answered.
        public let agreed: Int
        /// Queries both it and its reference answered.
        public let compared: Int
        /// The first queries on which it differed from its reference.
        public let disagreements: [Disagreement]
        /// The structure it needs, and its cost.
        public let structure: StrategyStructure

        /// The sum of the totals over the queries it answered.
        public var found: Int { queries.compactMap(\.total).reduce(0, +) }

        /// The queries it was timed on.
        public var timedQueries: Set<String> { Set(queries.filter { !$0.seconds.isEmpty }.map(\.query)) }

        /// Its timings on `queries` only, to set two strategies side by side on the same queries.
        public func latency(on queries: Set<String>) -> LatencySummary {
            LatencySummary(self.queries.filter { queries.contains($0.query) }.flatMap(\.seconds))
        }
    }

    /// When it was measured.
    public let date: JournalDate
    /// The journal measured.
    public let journal: JournalFacts
    /// Timed runs per query and strategy (after one untimed run that also collects the entry set).
    public let runs: Int
    /// What each timed run asks for: the exact total and this many newest entries.
    public let pageSize: Int
    /// The queries, in the order run.
    public let queries: [ComparisonQuery]
    /// Every strategy measured, in the order run.
    public let strategies: [StrategyResult]
    /// For each pair of strategies, the share of queries both answered on which they returned
    /// exactly the same entries (nil when no query was answered by both).
    public let agreement: [[Double?]]

    /// A group of strategies meant to return the same entries, and whether they did.
    public struct EquivalenceCheck: Sendable {
        /// The strategies of the group.
        public let strategies: [String]
        /// Every pair agreed on every query both answered.
        public let agreed: Bool
    }

    /// The groups of two or more measured strategies that are meant to agree.
    public var equivalenceChecks: [EquivalenceCheck] {
        var groups: [String: [Int]] = [:]
        for (index, result) in strategies.enumerated() { groups[result.equivalence, default: []].append(index) }
        return groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }.map { members in
            EquivalenceCheck(
                strategies: members.map { strategies[$0].name },
                agreed: members.allSatisfy { a in members.allSatisfy { b in agreement[a][b].map { $0 == 1 } ?? true } })
        }
    }

    /// Whether a difference from the family reference is a fault (the two are meant to agree)
    /// rather than by design (another fold, or the peer's tokenizer).
    public func mustAgree(_ result: StrategyResult) -> Bool {
        guard let reference = result.reference, let other = strategy(reference) else { return false }
        return other.equivalence == result.equivalence
    }

    /// The result of the strategy `id`.
    public func strategy(_ id: StrategyID) -> StrategyResult? { strategies.first { $0.id == id } }
}
