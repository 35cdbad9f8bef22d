import Foundation
import JournalKit

/// Runs every chosen strategy over the same queries on one journal, warm, several times each,
/// and checks each strategy's entry sets against its family's reference (`token` for the
/// word-prefix family, `contains[cd]` for the substring family).
public struct StrategyComparison: Sendable {
    /// The strategies measured, in the order reported.
    public var strategies: [SearchStrategy]
    /// The queries each strategy answers.
    public var queries: [ComparisonQuery]
    /// Timed runs per query.
    public var runs = 5
    /// Whether to rebuild each strategy's structure to time its build.
    public var measureBuilds = true
    /// Disagreeing queries kept per strategy.
    public var disagreementsKept = 5
    /// Whether to compare each strategy's entries with its family's reference.
    public var checksAgreement = true
    /// Seconds a strategy may spend before its remaining queries are skipped (nil: no limit),
    /// so that a slow strategy on a large journal is sampled rather than measured for hours.
    public var budgetSeconds: Double?

    /// A comparison of `strategies` over `queries`, with the default settings.
    public init(strategies: [SearchStrategy], queries: [ComparisonQuery]) {
        self.strategies = strategies
        self.queries = queries
    }

    /// Each family's reference: the strategy the others of the family are checked against.
    static let references: [SearchFamily: StrategyID] = [.wordPrefix: .token, .substring: .containsCD]

    /// Measures; `progress` hears one line per step, for a terminal.
    public func run(
        on journal: Journal, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(JournalError) -> ComparisonReport {
        var structures: [StrategyID: StrategyStructure] = [:]
        for strategy in strategies {
            progress("measuring the structure of \(strategy.name)…")
            structures[strategy.id] = try StrategyStructure.measure(
                strategy.structure, of: journal, rebuild: measureBuilds, progress: nil)
        }

        var referenceSets: [StrategyID: [String: [Int64]]] = [:]
        for (family, id) in Self.references where checksAgreement && strategies.contains(where: { $0.family == family })
        {
            progress("collecting the reference answers of \(id)…")
            let reference = SearchStrategies[id]
            var sets: [String: [Int64]] = [:]
            for query in queries {
                if let ids = try? entrySet(of: query.text, strategy: reference, in: journal) { sets[query.text] = ids }
            }
            referenceSets[id] = sets
        }

        var results: [ComparisonReport.StrategyResult] = []
        var fingerprints: [[Int?]] = []
        for (index, strategy) in strategies.enumerated() {
            progress("timing \(strategy.name) (\(index + 1) of \(strategies.count))…")
            let reference = Self.references[strategy.family].flatMap { $0 == strategy.id ? nil : $0 }
            var queryResults: [ComparisonReport.QueryResult] = []
            var timings: [Double] = []
            var agreed = 0
            var compared = 0
            var disagreements: [ComparisonReport.Disagreement] = []
            var strategyFingerprints: [Int?] = []
            let started = ContinuousClock.now
            for query in queries {
                if let budgetSeconds, secondsSince(started) > budgetSeconds {
                    queryResults.append(.init(query: query.text, total: nil, seconds: [], refusal: nil))
                    strategyFingerprints.append(nil)
                    continue
                }
                // One untimed run warms the strategy; the whole result set is collected only when
                // agreement is checked (its cost grows with the journal).
                let total: Int
                do {
                    if checksAgreement {
                        let ids = try entrySet(of: query.text, strategy: strategy, in: journal)
                        total = ids.count
                        strategyFingerprints.append(Self.fingerprint(ids))
                        if let reference, let expected = referenceSets[reference]?[query.text] {
                            compared += 1
                            if expected == ids {
                                agreed += 1
                            } else if disagreements.count < disagreementsKept {
                                let missing = Set(expected).subtracting(ids).count
                                let extra = Set(ids).subtracting(expected).count
                                disagreements.append(
                                    .init(
                                        query: query.text, expected: expected.count, found: ids.count, missing: missing,
                                        extra: extra))
                            }
                        }
                    } else {
                        total = try journal.search(query.text, strategy: strategy, page: .first).total
                        strategyFingerprints.append(nil)
                    }
                } catch  where error.kind == .usage {
                    queryResults.append(.init(query: query.text, total: nil, seconds: [], refusal: error.message))
                    strategyFingerprints.append(nil)
                    continue
                }
                var queryTimings: [Double] = []
                for _ in 0..<runs {
                    let start = ContinuousClock.now
                    _ = try journal.search(query.text, strategy: strategy, page: .first)
                    queryTimings.append(secondsSince(start))
                }
                timings += queryTimings
                queryResults.append(.init(query: query.text, total: total, seconds: queryTimings, refusal: nil))
            }
            fingerprints.append(strategyFingerprints)
            results.append(
                ComparisonReport.StrategyResult(
                    id: strategy.id, family: strategy.family, equivalence: strategy.equivalence,
                    summary: strategy.summary,
                    latency: LatencySummary(timings),
                    queries: queryResults, reference: reference, agreed: agreed, compared: compared,
                    disagreements: disagreements,
                    structure: structures[strategy.id, default: StrategyStructure(description: "not measured")]))
        }

        let statistics = try journal.statistics()
        return ComparisonReport(
            date: .now,
            journal: .init(
                entries: statistics.entries, tokens: statistics.tokens,
                mainStoreBytes: statistics.mainStoreBytes, searchStoreBytes: statistics.searchStoreBytes),
            runs: runs, pageSize: PageRequest.first.limit, queries: queries, strategies: results,
            agreement: Self.agreementMatrix(fingerprints))
    }

    /// Every entry a strategy finds for a query, newest first (one untimed run, which also warms it).
    private func entrySet(
        of query: String, strategy: SearchStrategy, in journal: Journal
    ) throws(JournalError) -> [Int64] {
        try journal.entryIDs(SearchQuery(query), strategy: strategy).map(\.number)
    }

    private static func fingerprint(_ ids: [Int64]) -> Int {
        var hasher = Hasher()
        hasher.combine(ids.count)
        for id in ids.sorted() { hasher.combine(id) }
        return hasher.finalize()
    }

    private static func agreementMatrix(_ fingerprints: [[Int?]]) -> [[Double?]] {
        fingerprints.map { row in
            fingerprints.map { column in
                let both = zip(row, column).compactMap { a, b -> Bool? in
                    guard let a, let b else { return nil }
                    return a == b
                }
                return both.isEmpty ? nil : Double(both.filter { $0 }.count) / Double(both.count)
            }
        }
    }
}
