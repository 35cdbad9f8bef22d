import Foundation
import JournalKit
import Testing

/// `journal search --sort`: newest first by default, oldest first, or most relevant first
/// (BM25, with each result's `score` in JSON), from the option or the configuration's `sort`.
@Suite struct SortTests {
    private func journal() throws -> JournalProcess {
        let journal = JournalProcess()
        for (date, text) in [
            ("2016-03-03", "coffee"), ("2024-05-01", "coffee coffee coffee in the morning"),
            ("2024-05-02", "tea and a long day with not much coffee at all, sadly, and rain"), ("2024-05-03", "tea"),
        ] {
            #expect(try journal.run(["add", "--date", date, text]).status == 0)
        }
        return journal
    }

    private func results(_ outcome: JournalProcess.Outcome) throws -> [(number: String, score: Double?)] {
        #expect(outcome.status == 0, "\(outcome.error)")
        let results = try #require(try outcome.json()["results"] as? [[String: Any]])
        return results.map {
            (($0["id"] as? String)?.components(separatedBy: "/").last ?? "", $0["score"] as? Double)
        }
    }

    @Test func eachOrderFromTheCommandLine() throws {
        let journal = try journal()
        defer { journal.removeStore() }
        for strategy in [StrategyID.prefix, .token].map(\.name) {
            let newest = try results(journal.run(["search", "--json", "--strategy", strategy, "coffee"]))
            #expect(newest.map(\.number) == ["p3", "p2", "p1"] && newest.allSatisfy { $0.score == nil })
            let oldest = try results(
                journal.run(["search", "--json", "--strategy", strategy, "--sort=oldest", "coffee"]))
            #expect(oldest.map(\.number) == ["p1", "p2", "p3"])
            // Three times in a short entry, then once in the shortest, then once in a long one.
            let ranked = try journal.run(["search", "--json", "--strategy", strategy, "--sort", "relevance", "coffee"])
            #expect(try ranked.json()["sort"] as? String == "relevance")
            let relevant = try results(ranked)
            #expect(relevant.map(\.number) == ["p2", "p1", "p3"], "\(relevant)")
            let scores = relevant.compactMap(\.score)
            #expect(scores.count == 3 && scores == scores.sorted(by: >) && scores.allSatisfy { $0 > 0 })
        }
        for strategy in SearchStrategies.all where !strategy.ranksByRelevance {
            let refused = try journal.run(["search", "--strategy", strategy.name, "--sort", "relevance", "coffee"])
            #expect(refused.status == 2, "\(strategy.name)")
            #expect(refused.error.contains("can't rank by relevance"), "\(strategy.name): \(refused.error)")
        }
        let unknown = try journal.run(["search", "--sort", "best", "coffee"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("newest"), "\(unknown.error)")
    }

    @Test func theConfigurationChoosesTheDefaultOrder() throws {
        let journal = try journal()
        defer { journal.removeStore() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("journal-sort-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("journal/config.toml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("sort = \"oldest\"\n".utf8).write(to: file)
        let environment = ["XDG_CONFIG_HOME": home.path]
        #expect(
            try results(journal.run(["search", "--json", "coffee"], environment: environment)).map(\.number) == [
                "p1", "p2", "p3",
            ])
        #expect(
            try results(journal.run(["search", "--json", "--sort", "newest", "coffee"], environment: environment)).map(
                \.number)
                == ["p3", "p2", "p1"])
        try Data("sort = \"best\"\n".utf8).write(to: file)
        let bad = try journal.run(["search", "coffee"], environment: environment)
        #expect(bad.status == 2 && bad.error.contains("sort must be newest, oldest or relevance"), "\(bad.error)")
    }
}
