import Foundation
import Testing

@testable import JournalKit

/// The live session: answers that follow the query, in order, never stale, never waited for.
@Suite struct LiveSearchTests {
    @Test func eachAnswerIsTheSearchOfItsRequest() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        for text in ["Crème brûlée au café", "Cremation of Sam McGee", "A quiet day", "Crevettes grillées #dîner"] {
            try journal.add(NewEntry(text: text))
        }
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        for typed in ["c", "cr", "cre", "crè", "crèm"] {
            let answer = try answers.wait(for: session.submit(.init(query: .typed(typed))))
            let results = try answer.results.get()
            #expect(results == (try journal.search(typed)))
            #expect(answer.highlights.count == results.entries.count)
            for (entry, ranges) in zip(results.entries, answer.highlights) {
                #expect(!ranges.isEmpty, "\(entry.text) has no highlight for \(typed)")
            }
        }
        // Folded, "crèm" is "crem": Crème and Cremation.
        #expect(try answers.latest?.results.get().total == 2)
    }

    @Test func anEmptyQueryListsTheNewestEntriesThatPassTheFilter() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        for day in 1...5 {
            try journal.add(
                NewEntry(
                    date: JournalDate(microseconds: Int64(day) * 86_400_000_000), text: "day \(day)",
                    starred: day.isMultiple(of: 2)))
        }
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        let all = try answers.wait(for: session.submit(.init(query: .typed("  "), limit: 3))).results.get()
        #expect(all.total == 5)
        #expect(all.entries.map(\.text) == ["day 5", "day 4", "day 3"])
        let starred = try answers.wait(
            for: session.submit(.init(query: .typed("", filter: EntryFilter(starred: true))))
        ).results.get()
        #expect(starred.entries.map(\.text) == ["day 4", "day 2"])
    }

    /// The screen's first answer (an empty query lists the newest entries) is not held up by
    /// loading the prefix table: the session loads it right after that answer, before the keys.
    @Test func thePrefixTableIsLoadedAfterTheFirstAnswer() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        try journal.add(NewEntry(text: "Crème brûlée au café"))
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        #expect(!journal.prefixTables.isLoaded)
        let first = try answers.wait(for: session.submit(.init(query: .typed("")))).results.get()
        #expect(first.total == 1)
        session.close()
        #expect(journal.prefixTables.isLoaded)
    }

    @Test func aQueryAStrategyCannotSearchIsAnAnswerNotACrash() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "?!"))
        let answers = AnswerLog()
        let session = LiveSearch(journal: store.journal, onAnswer: answers.append)
        defer { session.close() }
        let refused = try answers.wait(for: session.submit(.init(query: .typed("?!"))))
        #expect(throws: JournalError.self) { try refused.results.get() }
        let substring = SearchStrategies[.contains]
        let found = try answers.wait(for: session.submit(.init(query: .typed("?!"), strategy: substring)))
        #expect(try found.results.get().total == 1)
    }

    /// A thousand requests as fast as they can be made: answers arrive in the order of their
    /// requests, the last request is always answered, and every answer is right for its own
    /// request.
    @Test func aBurstOfAThousandQueriesNeverDeliversAStaleAnswer() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma"]
        var generator = SystemRandomNumberGenerator()
        try store.importTexts(
            (0..<2_000).map { index in
                (0..<12).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ") + " \(index)"
            })
        let strategies = [StrategyID.prefix, .containsCD, .token].map { SearchStrategies[$0] }
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        var last = 0
        for index in 0..<1_000 {
            let word = words[index % words.count]
            let typed = String(word.prefix(1 + index % word.count))
            last = session.submit(.init(query: .typed(typed), strategy: strategies[index % strategies.count], limit: 5))
        }
        let final = try answers.wait(for: last)
        #expect(final.request.query.text == String(words[999 % words.count].prefix(1 + 999 % 5)))
        let delivered = answers.all
        #expect(zip(delivered, delivered.dropFirst()).allSatisfy { $0.generation < $1.generation })
        #expect(delivered.last?.generation == last)
        for answer in delivered {
            let expected = try journal.search(
                answer.request.query, strategy: answer.request.strategy, page: PageRequest(limit: 5), progress: nil)
            #expect(try answer.results.get() == expected)
        }
    }

    /// A search under way when a newer request comes is stopped, not finished, and its answer
    /// never arrives.
    @Test func aNewerRequestCancelsTheSearchUnderWay() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let paragraph = String(repeating: "the slow and patient reader of long journals ", count: 40)
        try store.importTexts((0..<3_000).map { paragraph + "\($0)" })
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        let slow = SearchStrategies[.matchesCD]
        let stale = session.submit(.init(query: .typed("no such needle"), strategy: slow))
        while !session.isSearching { usleep(100) }
        let newer = session.submit(.init(query: .typed("patient")))
        let answer = try answers.wait(for: newer)
        #expect(try answer.results.get().total == 3_000)
        #expect(!answers.all.contains { $0.generation == stale })
        #expect(session.cancelledSearches == 1)
    }

    @Test func closingStopsTheSearchAndDeliversNothingMore() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        try store.importTexts((0..<2_000).map { String(repeating: "long text ", count: 100) + "\($0)" })
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        session.submit(.init(query: .typed("absent"), strategy: SearchStrategies[.matchesCD]))
        session.close()
        session.submit(.init(query: .typed("long")))
        session.close()
        #expect(answers.all.isEmpty)
        #expect(try journal.search("long").total == 2_000)
    }

    @Test func theAsyncSequenceEndsWhenTheSessionCloses() async throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        try await journal.add(NewEntry(text: "Tokyo 東京タワー"))
        let (session, answers) = LiveSearch.answers(on: journal)
        let generation = session.submit(.init(query: .typed("東京")))
        var seen: [Int] = []
        for await answer in answers {
            seen.append(answer.generation)
            #expect(try answer.results.get().total == 1)
            if answer.generation == generation { session.close() }
        }
        #expect(seen == [generation])
    }

    /// A phrase typed up to a short last word among thousands of entries holding its words:
    /// the page comes first, marked as such, and then the same page with the exact total.
    @Test func aPhraseSlowToCountShowsItsPageBeforeItsTotal() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let words = ["the", "tea", "table", "tiger", "then", "cat"]
        try store.importTexts(
            (0..<5_000).map { index in
                (0..<6).map { words[($0 * 7 + index * 3 + $0 * index) % words.count] }.joined(separator: " ")
            })
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        let request = LiveSearch.Request(query: .typed(#""the t"#), limit: 10)
        let generation = session.submit(request)
        let counted = try answers.wait(for: generation)
        let delivered = answers.all.filter { $0.generation == generation }
        let expected = try journal.search(request.query, page: PageRequest(limit: 10))
        #expect(delivered.map(\.totalFollows) == [true, false])
        #expect(try delivered[0].results.get().entries == expected.entries)
        #expect(try delivered[0].results.get().total == 10)
        #expect(delivered[0].highlights.count == 10)
        #expect(try counted.results.get() == expected)
    }

    @Test func aSubmittedRequestSeesWhatWasWrittenSince() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let entry = try journal.add(NewEntry(text: "first draft"))
        let answers = AnswerLog()
        let session = LiveSearch(journal: journal, onAnswer: answers.append)
        defer { session.close() }
        #expect(try answers.wait(for: session.submit(.init(query: .typed("revised")))).results.get().total == 0)
        try journal.edit(entry.id, text: "revised draft")
        #expect(try answers.wait(for: session.submit(.init(query: .typed("revised")))).results.get().total == 1)
    }
}

/// The answers a session delivered, in order, and a way to wait for one.
private final class AnswerLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var answers: [LiveSearch.Answer] = []

    var all: [LiveSearch.Answer] { condition.withLock { answers } }
    var latest: LiveSearch.Answer? { all.last }

    @Sendable func append(_ answer: LiveSearch.Answer) {
        condition.withLock {
            answers.append(answer)
            condition.broadcast()
        }
    }

    /// The answer to `generation` with its total, once delivered; a test failure (not a hang)
    /// when it takes more than a minute.
    func wait(for generation: Int) throws -> LiveSearch.Answer {
        let deadline = Date().addingTimeInterval(60)
        return try condition.withLock {
            while true {
                if let answer = answers.first(where: { $0.generation == generation && !$0.totalFollows }) {
                    return answer
                }
                guard condition.wait(until: deadline) else { throw WaitExpired(generation: generation) }
            }
        }
    }

    struct WaitExpired: Error { let generation: Int }
}
