import Foundation
import JournalText
import Testing

@testable import JournalKit

/// Each strategy against answers worked out by hand on a small journal.
@Suite struct StrategyTests {
    /// Entry n is the n-th text, dated in that order, so newest first is highest n first.
    static let texts = [
        "Thé Crème BRÛLÉE",  // 1
        "Straße nach İstanbul",  // 2
        "50% off_sale (a.b) back\\slash done",  // 3
        "東京タワーに行きました",  // 4
        "cafe\u{301} au lait",  // 5: e + combining acute
        "café au lait",  // 6: precomposed é
        "the theory of everything",  // 7
        "STRASSE",  // 8
        "a\u{0}b nul",  // 9
    ]

    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        for (index, text) in Self.texts.enumerated() {
            try store.journal.add(NewEntry(date: JournalDate(microseconds: Int64(index) * 1_000_000), text: text))
        }
        return store
    }

    private func found(_ journal: Journal, _ query: String, _ strategy: StrategyID) throws -> [Int64] {
        let results = try journal.search(query, strategy: SearchStrategies[strategy], page: PageRequest(limit: 0))
        #expect(results.total == results.entries.count)
        return results.entries.map(\.id.number)
    }

    @Test func substringStrategiesFindExactlyWhatTheirFoldSays() throws {
        let store = try journal()
        let cases: [(query: String, plain: [Int64], c: [Int64], d: [Int64], cd: [Int64])] = [
            ("café", [6], [6, 5], [6, 5], [6, 5]),
            ("STRASSE", [8], [8, 2], [8], [8, 2]),
            ("İstanbul", [2], [2], [2], [2]),
            ("istanbul", [], [], [], [2]),
            ("crème", [], [1], [], [1]),
            ("Creme", [], [], [1], [1]),
            ("東京", [4], [4], [4], [4]),
            ("%", [3], [3], [3], [3]),
            ("_", [3], [3], [3], [3]),
            (".", [3], [3], [3], [3]),
            ("(a", [3], [3], [3], [3]),
            ("\\", [3], [3], [3], [3]),
            ("a.b", [3], [3], [3], [3]),
            ("%_", [], [], [], []),
            ("a\u{0}b", [9], [9], [9], [9]),
            ("b nul", [9], [9], [9], [9]),
            ("lait", [6, 5], [6, 5], [6, 5], [6, 5]),
        ]
        // Every substring strategy of the registry, checked against the column of its fold.
        for strategy in SearchStrategies.all where strategy.family == .substring {
            let column: ((query: String, plain: [Int64], c: [Int64], d: [Int64], cd: [Int64])) -> [Int64]
            switch strategy.equivalence {
            case "substring": column = { $0.plain }
            case "substring[c]": column = { $0.c }
            case "substring[d]": column = { $0.d }
            case "substring[cd]": column = { $0.cd }
            default:
                Issue.record("no expected answers for \(strategy.name) (equivalence \(strategy.equivalence))")
                continue
            }
            for test in cases {
                #expect(try found(store.journal, test.query, strategy.id) == column(test), "\(strategy) \(test.query)")
            }
        }
    }

    @Test func wordPrefixStrategiesFindEveryWordAsATokenPrefix() throws {
        let store = try journal()
        let cases: [(String, [Int64])] = [
            ("bru cre", [1]), ("CRÈME", [1]), ("t", [7, 1]), ("th", [7, 1]), ("theo", [7]), ("東京", [4]), ("東", [4]),
            ("strasse", [8, 2]), ("straße", [8, 2]), ("ss", []), ("istanbul", [2]), ("İST", [2]), ("cafe", [6, 5]),
            ("café lait", [6, 5]), ("a.b", [3]), ("off", [3]), ("off_sale", [3]), ("50", [3]), ("a", [9, 6, 5, 3]),
            ("nul", [9]), ("every the", [7]), ("the absent", []),
        ]
        let strategies = SearchStrategies.all.filter { $0.equivalence == SearchFamily.wordPrefix.rawValue }
        #expect(strategies.count >= 2)
        for (query, expected) in cases {
            for strategy in strategies {
                #expect(try found(store.journal, query, strategy.id) == expected, "\(strategy) \(query)")
            }
        }
    }

    @Test func fts5AnswersAsAUserWouldSetItUpAndDiffersWhereUnicode61Does() throws {
        let store = try journal()
        #expect(try found(store.journal, "bru cre", .fts5) == [1])
        #expect(try found(store.journal, "theo", .fts5) == [7])
        #expect(try found(store.journal, "東京", .fts5) == [4])
        // unicode61 does not fold ß to ss: only the entry spelled with ss.
        #expect(try found(store.journal, "strasse", .fts5) == [8])
        // Kept current by its triggers once built.
        let added = try store.journal.add(NewEntry(date: JournalDate(microseconds: 99_000_000), text: "theorem"))
        #expect(try found(store.journal, "theo", .fts5) == [added.id.number, 7])
        try store.journal.edit(added.id, text: "lemma")
        #expect(try found(store.journal, "theo", .fts5) == [7])
        try store.journal.delete(EntryID(storeID: store.journal.storeID, number: 7))
        #expect(try found(store.journal, "theo", .fts5) == [])
    }

    @Test func pagesAndCountsPastTheEnd() throws {
        let store = try journal()
        for strategy in SearchStrategies.all {
            let page = try store.journal.search("a", strategy: strategy, page: PageRequest(limit: 1, offset: 1))
            let all = try store.journal.search("a", strategy: strategy, page: PageRequest(limit: 0))
            #expect(page.entries.map(\.id) == all.entries.dropFirst().prefix(1).map(\.id), "\(strategy)")
            let beyond = try store.journal.search("a", strategy: strategy, page: PageRequest(limit: 5, offset: 50))
            #expect(beyond.entries.isEmpty)
            #expect(beyond.total == all.total, "\(strategy) counts past the end")
        }
    }

    @Test func refusesQueriesAStrategyCannotAnswer() throws {
        let store = try journal()
        expectError(.usage) { try store.journal.search("\u{301}", strategy: SearchStrategies[.containsD]) }
        expectError(.usage) { try store.journal.search("\u{301}", strategy: SearchStrategies[.matchesCD]) }
        #expect(
            try store.journal.search("\u{301}", strategy: SearchStrategies[.contains]).total == 1,
            "plain contains keeps the accent")
        expectError(.usage) { try store.journal.search("…!", strategy: SearchStrategies[.fts5]) }
        expectError(.usage) { try store.journal.search("…!", strategy: SearchStrategies[.prefix]) }
        #expect(try SearchStrategies.named("contains-cd").name == "contains[cd]")
        #expect(try SearchStrategies.named("matches[d]").name == "matches[d]")
        #expect(Set(SearchStrategies.all.map(\.name)).count == SearchStrategies.all.count)
    }

    @Test func regexSearchIsARealExpressionAndReportsBadOnes() throws {
        let store = try journal()
        #expect(try store.journal.search(regex: "^(the|Thé) ").entries.map(\.id.number) == [7, 1])
        // ICU matches case-insensitively by full case folding, so "strasse" finds "Straße" too.
        #expect(try store.journal.search(regex: "strasse", caseInsensitive: true).entries.map(\.id.number) == [8, 2])
        #expect(try store.journal.search(regex: "strasse").entries.map(\.id.number) == [])
        #expect(throws: JournalError(.usage, "the regular expression is empty")) { try store.journal.search(regex: "") }
        #expect { try store.journal.search(regex: "ab(c") } throws: { error in
            (error as? JournalError)?.kind == .usage
                && (error as? JournalError)?.message.contains("U_REGEX_MISMATCHED_PAREN") == true
        }
    }
}

@Suite struct MatchHighlighterTests {
    private func marked(_ text: String, _ query: String, _ highlighting: MatchHighlighting) throws -> [String] {
        MatchHighlighter(query: try SearchQuery(query), highlighting: highlighting).ranges(in: text).map {
            String(text[$0])
        }
    }

    @Test func marksMatchedWordsAndFoldedSubstringsInTheOriginalText() throws {
        #expect(try marked("Thé Crème BRÛLÉE, brulée", "bru", .wordPrefix) == ["BRÛLÉE", "brulée"])
        #expect(try marked("Thé Crème BRÛLÉE", "creme", .substring(.cd)) == ["Crème"])
        #expect(try marked("Straße STRASSE", "strasse", .substring(.cd)) == ["Straße", "STRASSE"])
        #expect(try marked("50% (a.b)", "(a.", .substring(nil)) == ["(a."])
        #expect(try marked("anything", "x", .none) == [])
        #expect(try marked("aaaa", "aa", .substring(nil)) == ["aa", "aa"], "occurrences do not overlap")
    }

    @Test func stopsAWindowPastTheFirstMatch() throws {
        let text =
            "x " + String(repeating: "filler ", count: 500) + "creme " + String(repeating: "filler ", count: 500)
            + "creme"
        for highlighting in [MatchHighlighting.wordPrefix, .substring(.cd)] {
            let ranges = MatchHighlighter(query: try SearchQuery("creme"), highlighting: highlighting).ranges(
                in: text, window: 100)
            #expect(ranges.map { String(text[$0]) } == ["creme"], "\(highlighting)")
        }
    }
}

@Suite struct FTS5PeerTests {
    /// Found by `journal compare` at 100,000 entries: the build stopped after its first batch.
    @Test func buildsEveryEntryAcrossBatches() throws {
        let store = try TemporaryJournal()
        let words = ["alpha", "bravo", "charlie", "delta"]
        for index in 0..<23 { try store.journal.add(NewEntry(text: "\(words[index % 4]) entry \(index)")) }
        try FTS5Peer.build(in: store.journal.main, batchSize: 3, progress: nil)
        for query in words + ["entry", "al", "entry delta"] {
            // Plain lowercase ASCII words: unicode61 and ICU agree, so fts5 must equal token.
            let fts5 = try store.journal.search(query, strategy: SearchStrategies[.fts5], page: PageRequest(limit: 0))
            let token = try store.journal.search(query, strategy: SearchStrategies[.token], page: PageRequest(limit: 0))
            #expect(fts5.entries.map(\.id) == token.entries.map(\.id), "\(query)")
        }
        #expect(try store.journal.search("entry", strategy: SearchStrategies[.fts5]).total == 23)
    }
}
