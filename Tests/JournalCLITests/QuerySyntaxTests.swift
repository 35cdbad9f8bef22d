import Foundation
import JournalKit
import Testing

/// `journal search` reading the query syntax from the command line: words starting with `-`
/// are query words, not options, and a query it can't read is a usage error naming the part.
@Suite struct QuerySyntaxTests {
    private func journal() throws -> JournalProcess {
        let journal = JournalProcess()
        for (date, text) in [
            ("2016-03-03", "Old notes about New York"), ("2024-05-01", "We flew to New York #travel/usa"),
            ("2024-05-02", "newer york is not new"), ("2024-05-03", "Tokyo, rainy #travel"),
        ] {
            #expect(try journal.run(["add", "--date", date, text]).status == 0)
        }
        return journal
    }

    private func numbers(_ outcome: JournalProcess.Outcome) throws -> [String] {
        let results = try #require(try outcome.json()["results"] as? [[String: Any]])
        return results.compactMap { ($0["id"] as? String)?.components(separatedBy: "/").last }
    }

    @Test func wordsStartingWithADashLeaveWordsOut() throws {
        let journal = try journal()
        defer { journal.removeStore() }
        for strategy in [StrategyID.prefix, .token, .fts5].map(\.name) {
            let cases: [([String], [String])] = [
                (["new", "-york"], []),
                (["york", "-on:2016"], ["p3", "p2"]),
                (["-\"new york\""], ["p4", "p3"]),
                (["\"new york\""], ["p2", "p1"]),
                (["#travel", "-tokyo"], ["p2"]),
                (["tokyo OR \"new york\"", "-#travel/usa"], ["p4", "p1"]),
                (["--", "-tokyo", "-york"], []),
                (["is:starred"], []),
            ]
            for (query, expected) in cases {
                let outcome = try journal.run(["search", "--json", "--strategy", strategy] + query)
                #expect(outcome.status == 0, "\(strategy) \(query): \(outcome.error)")
                #expect(try numbers(outcome) == expected, "\(strategy) \(query)")
            }
        }
    }

    @Test func theSubstringStrategiesTakeTheQueryAsItIs() throws {
        let journal = try journal()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "--date", "2024-06-01", "say \"new york\" -york (sic)"]).status == 0)
        let outcome = try journal.run([
            "search", "--json", "--strategy", SearchStrategies[.containsCD].alias, "\"new york\" -york (sic)",
        ])
        #expect(try numbers(outcome) == ["p5"])
    }

    @Test func aQueryItCannotReadIsAUsageError() throws {
        let journal = try journal()
        defer { journal.removeStore() }
        let cases: [([String], String)] = [
            (["york", "from:someday"], "\"from:someday\": the date \"someday\" is not understood"),
            (["is:pinned"], "is: knows only is:starred"),
            (["on:"], "needs a date"),
            (["-", "()"], "has no words to search for"),
            (["york", "--limt", "3"], "unknown option --limt"),
        ]
        for (arguments, message) in cases {
            let outcome = try journal.run(["search"] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.error.contains(message), "\(arguments): \(outcome.error)")
            #expect(outcome.output.isEmpty, "\(arguments)")
        }
    }

    @Test func helpShowsTheSyntax() throws {
        let help = try JournalProcess().run(["search", "--help"], useStore: false)
        for example in ["\"new york\"", "tokyo OR kyoto", "paris -work", "#travel", "is:starred", "on:\"last month\""] {
            #expect(help.output.contains(example), "\(example)")
        }
    }
}
