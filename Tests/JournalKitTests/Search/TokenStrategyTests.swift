import Foundation
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

/// The `token` strategy against the semantics computed the slow, obvious way.
@Suite struct TokenStrategyTests {
    /// Entries match when every word of words(canonical(q)) is a code-point prefix of one of
    /// their tokens; newest first, larger number first on equal dates.
    private func reference(_ query: String, in entries: [Entry]) throws -> [EntryID] {
        let words = WordBreaker.uniqueWords(in: Fold.canonical(query))
        return entries.filter { entry in
            let tokens = Tokens.of(text: entry.text)
            return words.allSatisfy { word in tokens.contains { $0.unicodeScalars.starts(with: word.unicodeScalars) } }
        }
        .sorted { ($0.date, $0.id.number) > ($1.date, $1.id.number) }
        .map(\.id)
    }

    @Test func agreesWithTheReferenceOnAGeneratedJournal() throws {
        let vocabulary = [
            "the", "then", "there", "them", "a", "an", "apple", "Äpfel", "café", "CAFE", "crème", "brûlée",
            "Straße", "strasse", "İstanbul", "東京タワー", "東京", "行きました", "日本語", "ﬁsh", "ǅemal",
            "naïve", "Ёлка", "ёж", "50%", "3.14", "under_score", "a.b", "don't", "𝒜lpha",
        ]
        var random = SplitMix64(seed: 7)
        let store = try TemporaryJournal()
        var lines: [String] = []
        for index in 0..<1_500 {
            let count = Int(random.next() % 12) + 1
            let text = (0..<count).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(
                separator: " ")
            let day = Int(random.next() % 60) + 1
            let date = JournalDate(microseconds: Int64(day) * 86_400_000_000 + Int64(index % 3))
            lines.append(#"{"date":"\#(date.iso8601)","text":"\#(text.replacingOccurrences(of: "\\", with: "\\\\"))"}"#)
        }
        let file = store.directory.url.appendingPathComponent("generated.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        let entries = try store.allEntries()
        #expect(entries.count == 1_500)

        var queries = [
            "t", "th", "the", "then", "a", "ap", "cafe", "CAFÉ", "creme brulee", "bru cre", "strasse", "straße",
            "ist", "東", "東京", "行き", "fi", "fish", "dz", "naive", "елка", "е", "50", "3.14", "under", "a.b",
            "don", "don't", "absent", "zzz", "the apple", "𝒜", "the there them", "東京 the",
        ]
        for _ in 0..<150 {
            let word = Array(vocabulary[Int(random.next() % UInt64(vocabulary.count))])
            let length = Int(random.next() % UInt64(min(4, word.count))) + 1
            queries.append(String(word.prefix(length)))
        }
        for query in queries {
            guard !WordBreaker.uniqueWords(in: Fold.canonical(query)).isEmpty else { continue }
            let expected = try reference(query, in: entries)
            let page = try store.journal.search(query, strategy: SearchStrategies[.token], page: PageRequest(limit: 0))
            #expect(page.total == expected.count, "total for \(query)")
            #expect(page.entries.map(\.id.number) == expected.map(\.number), "entries for \(query)")
            let second = try store.journal.search(
                query, strategy: SearchStrategies[.token], page: PageRequest(limit: 7, offset: 7))
            #expect(
                second.entries.map(\.id.number) == expected.dropFirst(7).prefix(7).map(\.number), "page 2 for \(query)")
        }
    }
}
