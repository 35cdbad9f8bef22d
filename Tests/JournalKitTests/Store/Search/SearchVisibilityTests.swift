import Foundation
import Testing

@testable import JournalKit

/// A change the search store has applied in part is seen by no search: every answer from the
/// search store is the journal before it, totals, pages and scores alike, and says how far the
/// index has got; the answer after the last batch is the journal after it.
@Suite(.hangGuard) struct SearchVisibilityTests {
    private static var noCatchUp: MainStore.WriteHooks { MainStore.WriteHooks(pruningThrough: 0) }

    /// How the indexer's batches end in ``journalInTheMiddleOfAnImport(interleaved:batches:)``:
    /// at four entries, or at 80 bytes of canonical text, which the import's entries (19 bytes
    /// each, "alpha delta 0 gamma") also fill four at a time, but after the edit's 12 bytes only
    /// three: the import, to be applied in parts, then starts a batch of its own.
    enum BatchEnd: CaseIterable {
        case entries, bytes
    }

    /// A journal of 12 entries, whose main store then took a delete, an edit and an import of
    /// 23 entries that the search store applied only two batches of four of. The import's
    /// entries are dated now, after every other, or (`interleaved`) one a day from before the
    /// journal's second entry to after its last.
    private func journalInTheMiddleOfAnImport(
        interleaved: Bool = false, batches: BatchEnd = .entries
    ) throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        try store.importTexts(
            (0..<12).map { "alpha beta \($0) " + String(repeating: "gamma ", count: $0 % 3) }, oneADay: interleaved)
        _ = try store.journal.main.delete([2], Self.noCatchUp)
        _ = try store.journal.main.update(3, PreparedEntry(text: "alpha edited"), Self.noCatchUp)
        _ = try store.journal.main.insert(Self.noCatchUp) { insert in
            for index in 0..<23 {
                let day = JournalDate(microseconds: Int64(index) * 86_400_000_000 / 2 + 43_200_000_000)
                try insert(PreparedEntry(text: "alpha delta \(index) gamma", date: interleaved ? day : .now))
            }
        }
        switch batches {
        case .entries: try store.indexStopping(afterBatches: 3, batchSize: 4)
        case .bytes: try store.indexStopping(afterBatches: 3, batchSize: 100, batchBytes: 80)
        }
        return store
    }

    /// Every strategy's answer to `query` (newest first, and by relevance where it ranks).
    private func answers(
        _ query: String, in journal: Journal
    ) throws -> [String: (newest: SearchResults, relevance: SearchResults?)] {
        var answers: [String: (SearchResults, SearchResults?)] = [:]
        for strategy in SearchStrategies.all {
            let newest = try journal.search(SearchQuery(query), strategy: strategy, page: PageRequest(limit: 50))
            let relevance =
                strategy.ranksByRelevance
                ? try journal.search(
                    SearchQuery(query), strategy: strategy, page: PageRequest(limit: 50, order: .relevance)) : nil
            answers[strategy.name] = (newest, relevance)
        }
        return answers
    }

    @Test(arguments: [false, true], BatchEnd.allCases)
    func searchesSeeTheJournalBeforeAnImportAppliedInPart(interleaved: Bool, batches: BatchEnd) throws {
        let store = try journalInTheMiddleOfAnImport(interleaved: interleaved, batches: batches)
        // A walk newest first starts at the newest entry before the import.
        let newestBefore = try store.journal.main.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(date) FROM entry WHERE n < 13")
        }
        #expect(
            try store.journal.search.read { db in try SearchVisibility.read(in: db).newestVisibleDate } == newestBefore)
        // The first batch held the delete and the edit, which end where the import begins; the
        // next two its first eight entries.
        let position = try store.journal.search.position()
        #expect(position.resumeAfterEntry == 20)
        let queries = ["alpha", "gamma", "delta", "alpha -gamma", "\"alpha delta\"", "edited OR 5"]
        var during: [String: [String: (newest: SearchResults, relevance: SearchResults?)]] = [:]
        for query in queries { during[query] = try answers(query, in: store.journal) }
        let journalAfter = try store.reopen()
        for query in queries {
            let after = try answers(query, in: journalAfter)
            for (name, answer) in during[query]! {
                let final = after[name]!
                #expect(final.newest.indexing == nil)
                guard let indexing = answer.newest.indexing else {
                    // From the main store, which took the import whole.
                    #expect(answer.newest.total == final.newest.total, "\(name) \(query)")
                    continue
                }
                #expect(
                    indexing == IndexingProgress(pendingEntries: 23, indexedEntries: 8, isRebuilding: false),
                    "\(name)")
                let expected = try expectedBeforeTheImport(query, in: journalAfter, strategy: name)
                #expect(answer.newest.total == expected.count, "\(name) \(query)")
                #expect(answer.newest.entries.map(\.id.number) == expected, "\(name) \(query)")
            }
        }
        // Relevance weighs the terms by the journal before the import: the scores are those
        // of the same journal without it.
        let before = try TemporaryJournal()
        try before.importTexts(
            (0..<12).map { "alpha beta \($0) " + String(repeating: "gamma ", count: $0 % 3) }, oneADay: interleaved)
        try before.journal.delete(EntryID(storeID: before.journal.storeID, number: 2))
        try before.journal.edit(EntryID(storeID: before.journal.storeID, number: 3), text: "alpha edited")
        for query in queries {
            let reference = try answers(query, in: before.journal)
            for (name, answer) in during[query]! where answer.newest.indexing != nil {
                guard let ranked = answer.relevance, let expected = reference[name]?.relevance else { continue }
                #expect(ranked.entries.map(\.id.number) == expected.entries.map(\.id.number), "\(name) \(query)")
                #expect(ranked.scores == expected.scores, "\(name) \(query)")
            }
        }
    }

    /// The entries numbered below the import (13) that `query` matches after it, newest first.
    private func expectedBeforeTheImport(_ query: String, in journal: Journal, strategy: String) throws -> [Int64] {
        let all = try journal.search(
            SearchQuery(query), strategy: SearchStrategies.named(strategy), page: PageRequest(limit: 100))
        return all.entries.map(\.id.number).filter { $0 < 13 }
    }

    @Test func theLastBatchShowsTheImportWhole() throws {
        let store = try journalInTheMiddleOfAnImport()
        #expect(try store.journal.search("delta").total == 0)
        try SearchIndexer(main: store.journal.main, search: store.journal.search, batchSize: 4).catchUp()
        let results = try store.journal.search("delta")
        #expect(results.total == 23)
        #expect(results.indexing == nil)
        // Every key of the visibility is gone with the last batch.
        let hidden = try store.journal.search.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM store_info WHERE key IN ('hidden_from', 'visible_document_count', "
                    + "'visible_word_count', 'visible_newest_date')")
        }
        #expect(hidden == 0)
        try store.expectConsistent()
    }

    @Test func aRebuildSaysSoAndAnswersFromTheBatchesItHasMerged() throws {
        let store = try TemporaryJournal()
        try store.importTexts((0..<10).map { "alpha \($0)" })
        try store.journal.search.resetForRebuild(from: store.journal.main)
        // A rebuild's batches are staged and hidden, as a large insert's are, until one merges them.
        try store.indexStopping(afterBatches: 1, batchSize: 4, runsPerMerge: 2)
        var results = try store.journal.search("alpha")
        #expect(results.total == 0)
        #expect(results.indexing == IndexingProgress(pendingEntries: 6, indexedEntries: 0, isRebuilding: true))
        try store.indexStopping(afterBatches: 1, batchSize: 4, runsPerMerge: 2)
        results = try store.journal.search("alpha")
        #expect(results.total == 8)
        #expect(results.entries.map(\.id.number) == Array((1...8).reversed()))
        #expect(results.indexing == IndexingProgress(pendingEntries: 2, indexedEntries: 0, isRebuilding: true))
        try SearchIndexer(main: store.journal.main, search: store.journal.search, batchSize: 4).catchUp()
        #expect(try store.journal.search("alpha").total == 10)
        try store.expectConsistent()
    }
}
