import Foundation
import GRDB
import Testing

@testable import JournalKit

/// An insert indexed in several batches stages its postings in runs and merges them every few
/// batches: the store it leaves is the one writing every batch at once would leave, row for
/// row, and what is staged meanwhile is checked, resumed and reset like the rest.
@Suite(.hangGuard) struct PostingRunsTests {
    private static var noCatchUp: MainStore.WriteHooks { MainStore.WriteHooks(pruningThrough: 0) }

    /// A journal of 5 entries whose main store then took an insert of 37 that the search store
    /// has not indexed yet; words repeat across entries, so that batches append to tokens'
    /// segments, and a few entries are long enough to fill a segment beyond one batch.
    private func journalWithAnInsertToIndex() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        try store.importTexts((0..<5).map { "alpha beta \($0)" })
        _ = try store.journal.main.insert(Self.noCatchUp) { insert in
            for index in 0..<37 {
                let words = (0..<(index % 7 == 0 ? 400 : 6)).map { "w\(($0 * 7 + index) % 23)" }
                try insert(PreparedEntry(text: "alpha delta \(index) " + words.joined(separator: " ")))
            }
        }
        return store
    }

    /// Every row of the posting tables, ids with their contents.
    private func postingRows(_ journal: Journal) throws -> [String] {
        try journal.search.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, count, documents, positions FROM posting ORDER BY id").map {
                "\($0)"
            }
                + Row.fetchAll(db, sql: "SELECT id, count, documents FROM prefix_posting ORDER BY id").map { "\($0)" }
        }
    }

    private func staged(_ journal: Journal) throws -> Int {
        try journal.search.pool.read { db in try PostingRuns.staged(in: db).count }
    }

    @Test func mergedRunsLeaveTheSegmentsThatBatchWritesWouldHave() throws {
        var rows: [Int: [String]] = [:]
        for runsPerMerge in [1, 3, 20] {
            let store = try journalWithAnInsertToIndex()
            try SearchIndexer(
                main: store.journal.main, search: store.journal.search, batchSize: 4,
                mergePolicy: MergePolicy(runsPerMerge: runsPerMerge)
            ).catchUp()
            #expect(try staged(store.journal) == 0)
            try store.expectConsistent()
            // Batches written at once leave their appends in recent segments, which a merge moves
            // to the segments as each batch would have appended them there.
            try store.journal.search.pool.write { db in
                var (tokenTails, keyTails) = (PostingTails(), PostingTails())
                try PostingSegments.tokens.mergeAllRecent(tails: &tokenTails, in: db)
                try PostingSegments.prefixKeys.mergeAllRecent(tails: &keyTails, in: db)
            }
            rows[runsPerMerge] = try postingRows(store.journal)
        }
        #expect(rows[1]!.count > 40)
        #expect(rows[3] == rows[1])
        #expect(rows[20] == rows[1])
    }

    @Test func stagedRunsAreVerifiedAndAnInterruptedIndexingFinishesThem() throws {
        let store = try journalWithAnInsertToIndex()
        try store.indexStopping(afterBatches: 4, batchSize: 4, runsPerMerge: 20)
        #expect(try staged(store.journal) == 4)
        #expect(try store.journal.search("delta").total == 0)
        // The check, here without the catch-up that `verify` does first (as while another
        // process indexes), finds the entries not indexed yet, and nothing else: it counts the
        // staged postings, without which the hidden documents' tokens would have none.
        let report = try JournalVerifier(stores: store.journal.stores).run(progress: nil)
        let notYetIndexed = (22...26).map { "p\($0) is not in the search store" } + ["… and 16 more like the above"]
        #expect(report.problems == notYetIndexed)
        // Another indexer (a later command's) takes the runs over and merges them at the end.
        try SearchIndexer(
            main: store.journal.main, search: store.journal.search, batchSize: 4,
            mergePolicy: MergePolicy(runsPerMerge: 20)
        )
        .catchUp()
        #expect(try staged(store.journal) == 0)
        #expect(try store.journal.search("delta").total == 37)
        try store.expectConsistent()
    }

    @Test func aRebuildDropsWhatWasStaged() throws {
        let store = try journalWithAnInsertToIndex()
        try store.indexStopping(afterBatches: 1, batchSize: 4)
        #expect(try staged(store.journal) == 1)
        try store.journal.search.resetForRebuild(from: store.journal.main)
        #expect(try staged(store.journal) == 0)
        try SearchIndexer(main: store.journal.main, search: store.journal.search, batchSize: 4).catchUp()
        #expect(try store.journal.search("alpha").total == 42)
        try store.expectConsistent()
    }
}
