import Foundation
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct StrategyComparisonTests {
    /// Texts where the strategies differ by design: folds, `ß`, Japanese without spaces.
    static let texts = ["Thé Crème BRÛLÉE", "Straße nach İstanbul", "東京タワーに行きました", "café au lait", "STRASSE"]

    private func journal() throws -> ScratchJournal {
        let store = try ScratchJournal()
        for (index, text) in Self.texts.enumerated() {
            try store.journal.add(NewEntry(date: JournalDate(microseconds: Int64(index) * 1_000_000), text: text))
        }
        return store
    }

    @Test func measuresEveryStrategyAndChecksThatTheStrategiesMeantToAgreeDo() throws {
        let store = try journal()
        let queries = ["strasse", "CRÈME", "a", "\u{301}", "東京"].map { ComparisonQuery(text: $0, kind: "test") }
        var comparison = StrategyComparison(strategies: SearchStrategies.all, queries: queries)
        comparison.runs = 2
        let report = try comparison.run(on: store.journal)

        #expect(report.strategies.map(\.id) == SearchStrategies.all.map(\.id))
        #expect(report.journal.entries == Self.texts.count)
        #expect(report.equivalenceChecks.count == 5)
        #expect(report.equivalenceChecks.allSatisfy { $0.agreed })

        let plain = try #require(report.strategy(.contains))
        #expect(plain.reference == .containsCD)
        #expect(!report.mustAgree(plain))
        #expect(
            plain.disagreements.map(\.query).contains("CRÈME"), "plain contains does not fold: a difference by design")

        let folded = try #require(report.strategy(.containsD))
        let refused = try #require(folded.queries.first { $0.query == "\u{301}" })
        #expect(refused.total == nil && refused.refusal != nil)
        #expect(folded.latency.samples == 2 * 4)

        let n = try #require(report.strategy(.containsN))
        #expect(report.mustAgree(n))
        #expect(n.agreed == n.compared && n.disagreements.isEmpty)

        let fts5 = try #require(report.strategy(.fts5))
        let strasse = try #require(fts5.disagreements.first { $0.query == "strasse" })
        #expect((strasse.expected, strasse.found, strasse.missing) == (2, 1, 1), "unicode61 does not fold ß")
        #expect(!report.mustAgree(fts5))

        #expect(try #require(report.strategy(.token)).structure.buildSeconds != nil)
        #expect(try #require(report.strategy(.token)).structure.bytes ?? 0 > 0)
        #expect(try #require(report.strategy(.prefix)).structure.bytes ?? 0 > 0)
        #expect(fts5.structure.bytes ?? 0 > 0)
        #expect(plain.structure.bytes == nil)

        for (row, values) in report.agreement.enumerated() {
            #expect(values[row] == 1)
            for (column, value) in values.enumerated() { #expect(value == report.agreement[column][row]) }
        }
    }

    @Test func choosesQueriesFromTheJournalsOwnWords() throws {
        let store = try ScratchJournal()
        let file = store.directory.url.appendingPathComponent("generated.jsonl")
        let lines = SyntheticJournal(count: 400, seed: 5).map {
            #"{"date":"\#($0.date.iso8601)","text":"\#($0.text)"}"#
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))

        let queries = try store.journal.builtInQueries()
        let kinds = Set(queries.map(\.kind))
        #expect(
            kinds.isSuperset(of: [
                "very common", "common", "rare", "absent", "one-letter prefix", "two-letter prefix", "two words",
                "capitals and diacritics",
                "ideographic",
            ]))
        #expect(Set(queries.map(\.text)).count == queries.count)
        for query in queries where query.kind == "absent" {
            #expect(try store.journal.search(query.text).total == 0)
        }
        for query in queries where query.kind == "very common" {
            #expect(try store.journal.search(query.text).total > 100)
        }
        #expect(queries.filter { $0.kind == "one-letter prefix" }.allSatisfy { $0.text.count == 1 })
    }

    @Test func readsAQueryFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("queries-\(UUID().uuidString).txt")
        try Data("# a comment\nthe\n\n  crème brûlée  \n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ComparisonQuery.load(path: file.path).map(\.text) == ["the", "crème brûlée"])
        let error = #expect(throws: JournalError.self) { try ComparisonQuery.load(path: "/nonexistent/queries") }
        #expect(error?.kind == .invalidInput)
    }
}

@Suite struct PredicateLadderTests {
    @Test func timesEveryPredicateAndModifierAndAgreesWithTheStrategiesOnCounts() throws {
        let store = try ScratchJournal()
        for text in ["Crème brûlée", "crème fraîche", "CREME", "the cream", "crème"] {
            try store.journal.add(NewEntry(text: text))
        }
        var ladder = PredicateLadder(query: "Crème")
        ladder.runs = 1
        let report = try ladder.run(on: store.journal)
        #expect(report.cells.count == 25)
        #expect(report.entries == 5)
        let matched = { (predicate: PredicateLadder.Predicate, modifier: PredicateLadder.Modifier) in
            report.cell(predicate, modifier).timing.matched
        }
        #expect(
            matched(.contains, .plain)
                == (try store.journal.search("Crème", strategy: SearchStrategies[.contains]).total))
        #expect(
            matched(.contains, .cd)
                == (try store.journal.search("Crème", strategy: SearchStrategies[.containsCD]).total))
        #expect(matched(.contains, .n) == matched(.contains, .cd))
        #expect(matched(.matches, .c) == matched(.contains, .c))
        #expect(matched(.beginsWith, .cd) == 4)
        #expect(matched(.endsWith, .cd) == 2)
        #expect(matched(.equals, .cd) == 2)
        #expect(matched(.equals, .plain) == 0)
        #expect(report.verdicts.count == 7)
    }
}
