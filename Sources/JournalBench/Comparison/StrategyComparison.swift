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

    static let references: [SearchFamily: String] = [.wordPrefix: "token", .substring: "contains[cd]"]

    /// Measures; `progress` hears one line per step, for a terminal.
    public func run(on journal: Journal, progress: @escaping @Sendable (String) -> Void = { _ in }) throws(JournalError) -> ComparisonReport
    {
        let context = journal.searchContext(progress: nil)
        var structures: [String: StrategyStructure] = [:]
        for strategy in strategies {
            progress("measuring the structure of \(strategy.name)…")
            structures[strategy.name] = try strategy.measureStructure(in: context, rebuild: measureBuilds)
        }

        var referenceSets: [String: [String: [Int64]]] = [:]
        for (family, name) in Self.references where checksAgreement && strategies.contains(where: { $0.family == family }) {
            progress("collecting the reference answers of \(name)…")
            let reference = try SearchStrategies.named(name)
            var sets: [String: [Int64]] = [:]
            for query in queries {
                if let ids = try? entrySet(of: query.text, strategy: reference, in: context) { sets[query.text] = ids }
            }
            referenceSets[name] = sets
        }

        var results: [ComparisonReport.StrategyResult] = []
        var fingerprints: [[Int?]] = []
        for (index, strategy) in strategies.enumerated() {
            progress("timing \(strategy.name) (\(index + 1) of \(strategies.count))…")
            let reference = Self.references[strategy.family].flatMap { $0 == strategy.name ? nil : $0 }
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
                // agreement is checked (at ten million entries it costs seconds a query).
                let total: Int
                do {
                    if checksAgreement {
                        let ids = try entrySet(of: query.text, strategy: strategy, in: context)
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
                                    .init(query: query.text, expected: expected.count, found: ids.count, missing: missing, extra: extra))
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
                    name: strategy.name, family: strategy.family, equivalence: strategy.equivalence, summary: strategy.summary,
                    latency: LatencySummary(timings),
                    queries: queryResults, reference: reference, agreed: agreed, compared: compared,
                    disagreements: disagreements, structure: structures[strategy.name] ?? .none))
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
    private func entrySet(of query: String, strategy: SearchStrategy, in context: SearchContext) throws(JournalError) -> [Int64] {
        let parsed = try SearchQuery(query)
        try strategy.validate(parsed)
        let plan = try SearchPlan(parsed, family: strategy.family, earliestDate: nil)
        return try strategy.search(plan, page: PageRequest(limit: 0), in: context).numbers
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
