import Foundation
import GRDB
import JournalKit
import JournalText

/// The query syntax timed against FTS5 in its best setup answering the same queries: phrases of
/// two and three words (common, rare, Chinese or Japanese), `OR` of two words, a word minus a
/// common word, a tag and a word; then words and phrases in order of relevance, next to FTS5's
/// `ORDER BY rank`. Each query's median over the runs, warm, in this process, the exact total
/// and the first 20; then, per kind, the median and p95 over its queries.
public struct SyntaxSearch: Sendable {
    /// One query of a kind: its totals (FTS5's tokenizer may find others) and median times.
    public struct Query: Sendable {
        /// The query as typed.
        public let text: String
        /// The entries the strategy found.
        public let total: Int
        /// The entries FTS5 found.
        public let fts5Total: Int
        /// The strategy's median.
        public let seconds: Double
        /// FTS5's median.
        public let fts5Seconds: Double
    }

    /// A kind of query and its queries.
    public struct Kind: Sendable {
        /// What the queries have in common ("phrase of 2 words, rare").
        public let name: String
        /// Its queries, timed.
        public let queries: [Query]
        /// The strategy's per-query medians, summarised over the kind.
        public var latency: LatencySummary { LatencySummary(queries.map(\.seconds)) }
        /// FTS5's, the same way.
        public var fts5Latency: LatencySummary { LatencySummary(queries.map(\.fts5Seconds)) }
    }

    /// The strategy timed (the default one).
    public let strategy: String
    /// The kinds, in the order of the table.
    public let kinds: [Kind]

    /// Times each kind's queries with `strategy` on `journal` and with FTS5's best setup in `queue`.
    static func measure(
        _ strategy: SearchStrategy, journal: Journal, best queue: DatabaseQueue, runs: Int, progress: (String) -> Void
    ) throws -> SyntaxSearch {
        var kinds: [Kind] = []
        let fts5Terms = try terms(in: queue)
        for (name, texts, order) in try queries(for: journal, knownToFTS5: fts5Terms.map { terms in terms.contains }) {
            progress("timing the query syntax: \(name)…")
            var measured: [Query] = []
            for text in texts {
                guard let fts5 = FTS5BestSetup.query(text) else { continue }
                let (count, page) = FTS5BestSetup.statements(for: fts5, ranked: order == .relevance)
                let arguments = StatementArguments((fts5.match.map { [$0.databaseValue] } ?? []) + fts5.arguments)
                var total = 0
                var fts5Total = 0
                let seconds = try median(runs) {
                    total = try journal.search(text, strategy: strategy, page: PageRequest(limit: 20, order: order))
                        .total
                }
                let fts5Seconds = try median(runs) {
                    try queue.read { db in
                        fts5Total = try Int.fetchOne(db, sql: count, arguments: arguments) ?? 0
                        _ = try Row.fetchAll(db, sql: page, arguments: arguments)
                    }
                }
                measured.append(
                    Query(text: text, total: total, fts5Total: fts5Total, seconds: seconds, fts5Seconds: fts5Seconds))
            }
            if !measured.isEmpty { kinds.append(Kind(name: name, queries: measured)) }
        }
        return SyntaxSearch(strategy: strategy.name, kinds: kinds)
    }

    /// The median of `runs` timings of `body`, after one untimed.
    private static func median(_ runs: Int, _ body: () throws -> Void) throws -> Double {
        try body()
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            let start = ContinuousClock.now
            try body()
            times.append(secondsSince(start))
        }
        return LatencySummary(times).median
    }

    /// Every term of FTS5's index in `queue` (its `fts5vocab`), or nil when SQLite can't list
    /// them.
    private static func terms(in queue: DatabaseQueue) throws -> Set<String>? {
        try queue.inDatabase { db in
            guard
                (try? db.execute(
                    sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.journal_terms USING fts5vocab(main, journal, 'row')"))
                    != nil
            else { return nil }
            return Set(try String.fetchAll(db, sql: "SELECT term FROM temp.journal_terms"))
        }
    }

    /// The queries of each kind, chosen from the journal: phrases from the words of its first
    /// 3,000 entries side by side (the most frequent runs, and runs seen once), words by how
    /// many entries have them, tags by how many entries carry them. Only words that are also
    /// terms of FTS5's index (`knownToFTS5`, when it can tell) are chosen, Chinese and Japanese
    /// aside (which FTS5 breaks otherwise, and the report compares with that said): a word its
    /// tokenizer keeps apart (FTS5 folds no Cyrillic `й` to `и`, as canonical text does) would
    /// have FTS5 answer nothing, fast, beside this journal's answer.
    static func queries(
        for journal: Journal, knownToFTS5: ((String) -> Bool)? = nil
    ) throws -> [(kind: String, queries: [String], order: SearchOrder)] {
        let known = knownToFTS5 ?? { _ in true }
        let texts = try journal.list(PageRequest(limit: 3_000)).entries.map { Fold.canonical($0.text) }
        var pairs: [[String]: Int] = [:]
        var triples: [[String]: Int] = [:]
        for text in texts {
            let words = WordBreaker.words(in: text)
            for index in words.indices.dropLast() { pairs[Array(words[index...(index + 1)]), default: 0] += 1 }
            for index in words.indices.dropLast(2) { triples[Array(words[index...(index + 2)]), default: 0] += 1 }
        }
        func isCJK(_ word: String) -> Bool {
            word.unicodeScalars.contains { $0.properties.isIdeographic || (0x3040...0x30FF).contains($0.value) }
        }
        func isPlain(_ word: String) -> Bool {
            word.unicodeScalars.count >= 2 && word.unicodeScalars.allSatisfy(\.properties.isAlphabetic) && known(word)
        }
        func phrases(_ runs: [[String]: Int], cjk: Bool, common: Bool) -> [String] {
            let eligible = runs.filter { run, count in
                (cjk ? run.allSatisfy(isCJK) : run.allSatisfy { isPlain($0) && !isCJK($0) }) && (common || count == 1)
            }
            let ordered = eligible.sorted {
                ($0.value, $0.key.joined(separator: " ")) > ($1.value, $1.key.joined(separator: " "))
            }
            let chosen =
                common || cjk
                ? Array(ordered.prefix(cjk ? 2 : 5)) + (cjk ? Array(ordered.filter { $0.value == 1 }.prefix(3)) : [])
                : stride(from: 0, to: ordered.count, by: max(1, ordered.count / 5)).prefix(5).map { ordered[$0] }
            return chosen.map { "\"" + $0.key.joined(separator: " ") + "\"" }
        }
        let words = try journal.search.tokenFrequencies().filter { isPlain($0.text) && !isCJK($0.text) }
        guard words.count > 400 else { return [] }
        let rare = words.filter { (2...5).contains($0.documents) }.map(\.text)
        let tags = try journal.tags().map(\.name)
        var kinds: [(kind: String, queries: [String])] = [
            ("phrase of 2 words, common", phrases(pairs, cjk: false, common: true)),
            ("phrase of 2 words, rare", phrases(pairs, cjk: false, common: false)),
            ("phrase of 2 words, CJK", phrases(pairs, cjk: true, common: true)),
            ("phrase of 3 words, common", phrases(triples, cjk: false, common: true)),
            ("phrase of 3 words, rare", phrases(triples, cjk: false, common: false)),
            ("phrase of 3 words, CJK", phrases(triples, cjk: true, common: true)),
            (
                "OR of two words",
                ["\(words[30].text) OR \(words[100].text)", "\(words[3].text) OR \(words[300].text)"]
                    + zip(rare.prefix(3), rare.dropFirst(3).prefix(3)).map { "\($0) OR \($1)" }
            ),
            (
                "a word minus a common word",
                [
                    "\(words[30].text) -\(words[0].text)", "\(words[100].text) -\(words[1].text)",
                    "\(words[300].text) -\(words[2].text)",
                ]
                    + rare.prefix(2).map { "\($0) -\(words[0].text)" }
            ),
        ]
        if !tags.isEmpty {
            kinds.append(
                (
                    "a tag and a word",
                    zip(tags.prefix(5), [words[30], words[100], words[0], words[300], words[5]]).map {
                        "#\($0) \($1.text)"
                    }
                ))
        }
        let ranked: [(kind: String, queries: [String])] = [
            ("relevance: a common word", words.prefix(5).map(\.text)),
            (
                "relevance: two words",
                ["\(words[30].text) \(words[100].text)", "\(words[3].text) \(words[300].text)"]
                    + zip(rare.prefix(3), words.dropFirst(10).prefix(3)).map { "\($0) \($1.text)" }
            ),
            ("relevance: a phrase of 2 common words", phrases(pairs, cjk: false, common: true)),
        ]
        return
            (kinds.map { ($0.kind, $0.queries, SearchOrder.newest) } + ranked.map { ($0.kind, $0.queries, .relevance) })
            .filter { !$0.queries.isEmpty }
    }
}
