import Foundation
import GRDB
import Testing

@testable import JournalKit

/// An import's entries broken into words while they are written: the catch-up takes those words
/// for a batch that applies exactly their insert, and leaves the store a read back would have;
/// for any other batch it reads the main store as usual.
@Suite(.hangGuard) struct WordsAheadTests {
    private static var noCatchUp: MainStore.WriteHooks { MainStore.WriteHooks(pruningThrough: 0) }

    /// The texts of the insert the search store has not indexed yet.
    private static let texts = (0..<37).map { index in
        "alpha delta \(index) Crème brûlée ー間の春 "
            + (0..<(index % 7 == 0 ? 400 : 6)).map { "w\(($0 * 7 + index) % 23)" }
            .joined(separator: " ")
    }

    /// A journal of 5 indexed entries whose main store then took an insert of `texts` that the
    /// search store has not indexed, and that insert's entries as the main store wrote them.
    private func journalWithAnInsertToIndex() throws -> (TemporaryJournal, [WordsAhead.Entry]) {
        let store = try TemporaryJournal()
        try store.importTexts((0..<5).map { "alpha beta \($0)" }, oneADay: true)
        let prepared = Self.texts.enumerated().map { index, text in
            PreparedEntry(text: text, date: JournalDate(microseconds: 1_700_000_000_000_000 + Int64(index)))
        }
        let inserted = try store.journal.main.insert(Self.noCatchUp) { insert in
            for entry in prepared { try insert(entry) }
        }
        let numbers = try #require(inserted.numbers)
        return (
            store,
            zip(numbers, prepared).map { .init(number: $0, date: $1.date, canonical: $1.canonical) }
        )
    }

    /// `entries` broken into words ahead, with the canonical text `text` gives each instead of
    /// its own: words the store then holds only if the catch-up took them.
    private func brokenAhead(
        _ entries: [WordsAhead.Entry], text: (WordsAhead.Entry) -> String = { $0.canonical }
    ) throws -> WordsAhead {
        let ahead = try #require(WordsAhead.start())
        ahead.add(Array(entries.prefix(10)).map { .init(number: $0.number, date: $0.date, canonical: text($0)) })
        ahead.add(Array(entries.dropFirst(10)).map { .init(number: $0.number, date: $0.date, canonical: text($0)) })
        return ahead
    }

    /// Every row of the search store's tables but the documents' URIs.
    private func rows(_ journal: Journal) throws -> [String] {
        try journal.search.pool.read { db in
            try [
                "SELECT id, count, documents, positions FROM posting", "SELECT id, text FROM token",
                "SELECT id, text FROM prefix_key", "SELECT * FROM prefix_posting",
                "SELECT id, date, tokens, length FROM document",
            ].flatMap { sql in try Row.fetchAll(db, sql: sql + " ORDER BY 1").map { "\($0)" } }
        }
    }

    private func catchUp(_ store: TemporaryJournal, wordsAhead: WordsAhead?) throws {
        var indexer = SearchIndexer(main: store.journal.main, search: store.journal.search)
        indexer.wordsAhead = wordsAhead
        try indexer.catchUp()
    }

    @Test func wordsBrokenAheadLeaveTheStoreAReadBackWould() throws {
        let (readBack, _) = try journalWithAnInsertToIndex()
        try catchUp(readBack, wordsAhead: nil)
        let (ahead, entries) = try journalWithAnInsertToIndex()
        let words = try brokenAhead(entries)
        try catchUp(ahead, wordsAhead: words)
        #expect(words.takeWords() == nil, "taken once, by the catch-up")
        try ahead.expectConsistent()
        let expected = try rows(readBack.journal)
        #expect(expected.count > 100)
        #expect(try rows(ahead.journal) == expected)
        #expect(try ahead.journal.search("間").total == 37)
    }

    @Test func wordsWhoseIntakeEndedBeforeTheCommitLeaveTheSameStore() throws {
        // An import ends the intake before its commit: the keys are found then, and entries
        // handed over after are not taken.
        let (readBack, _) = try journalWithAnInsertToIndex()
        try catchUp(readBack, wordsAhead: nil)
        let (ahead, entries) = try journalWithAnInsertToIndex()
        let words = try brokenAhead(entries)
        words.endIntake()
        words.add([.init(number: entries.last!.number + 1, date: entries[0].date, canonical: "zebra")])
        try catchUp(ahead, wordsAhead: words)
        try ahead.expectConsistent()
        #expect(try rows(ahead.journal) == rows(readBack.journal))
        #expect(try ahead.journal.search("zebra").total == 0)
    }

    @Test func theCatchUpTakesTheWordsAsGiven() throws {
        // Broken from other texts, the words are indexed all the same: how the tests here know
        // whether the catch-up took them.
        let (store, entries) = try journalWithAnInsertToIndex()
        try catchUp(store, wordsAhead: try brokenAhead(entries) { "zebra \($0.number)" })
        #expect(try store.journal.search("zebra").total == 37)
        #expect(try store.journal.search("delta").total == 0)
    }

    @Test func wordsOfOtherEntriesAreLeftAside() throws {
        for shift: Int64 in [-1, 1] {
            let (store, entries) = try journalWithAnInsertToIndex()
            let others = entries.map { WordsAhead.Entry(number: $0.number + shift, date: $0.date, canonical: "zebra") }
            try catchUp(store, wordsAhead: try brokenAhead(others))
            #expect(try store.journal.search("zebra").total == 0)
            #expect(try store.journal.search("delta").total == 37)
            try store.expectConsistent()
        }
        // Words of only part of the insert are left aside too.
        let (store, entries) = try journalWithAnInsertToIndex()
        try catchUp(store, wordsAhead: try brokenAhead(Array(entries.dropLast())) { _ in "zebra" })
        #expect(try store.journal.search("zebra").total == 0)
        #expect(try store.journal.search("delta").total == 37)
    }

    @Test func anotherChangeAfterTheInsertLeavesTheWordsAside() throws {
        let (store, entries) = try journalWithAnInsertToIndex()
        // Another process edits an entry of the import between its commit and its catch-up.
        #expect(try store.journal.main.update(entries[3].number, PreparedEntry(text: "edited gamma"), Self.noCatchUp))
        try catchUp(store, wordsAhead: try brokenAhead(entries) { _ in "zebra" })
        #expect(try store.journal.search("zebra").total == 0)
        #expect(try store.journal.search("delta").total == 36)
        #expect(try store.journal.search("gamma").total == 1)
        try store.expectConsistent()
    }

    @Test func entriesOutOfOrderOrAbandonedLeaveNoWords() throws {
        let (_, entries) = try journalWithAnInsertToIndex()
        let shuffled = try #require(WordsAhead.start())
        shuffled.add([entries[1], entries[0]])
        #expect(shuffled.takeWords() == nil)
        let abandoned = try #require(WordsAhead.start())
        abandoned.add(entries)
        abandoned.abandon()
        #expect(abandoned.takeWords() == nil)
        let none = try #require(WordsAhead.start())
        #expect(none.takeWords() == nil)
    }
}
