import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

/// Entries added above every entry go to recent segments, which readers read after the
/// segments and any other change merges first: against a model of each owner's entries, through
/// every reader, and through whole journals.
@Suite(.hangGuard) struct PostingSegmentsRecentTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE posting (
                        id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL
                    );
                    CREATE TABLE prefix_posting (
                        id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL, positions BLOB NOT NULL
                    );
                    """ + PostingSegments.recentSchema
                        + "ALTER TABLE prefix_posting_recent ADD COLUMN positions BLOB NOT NULL DEFAULT x'';")
        }
        return queue
    }

    private func rows(_ table: String, owner: Int64, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE id >> 32 = ?", arguments: [owner]) ?? 0
    }

    /// Random rounds on three tokens: appends above every entry (to recent segments), edits that
    /// take entries out, now and then a merge of every recent segment. After each, every reader
    /// gives the model: the numbers, each one's positions, counts by segment, membership, a
    /// window, the positions a cursor steps to, and each token's count.
    @Test func readersSeeAppendsEditsAndMergesAsTheModel() throws {
        let queue = try makeDatabase()
        let segments = PostingSegments.tokens
        var generator = SplitMix64(seed: 29)
        var model: [Int64: [Int64: UInt32]] = [1: [:], 2: [:], 3: [:]]  // number → version of its positions
        var tails = PostingTails(budget: .max)
        var next: Int64 = 1
        var sawRecent = false
        try queue.write { db in
            for round in 0..<40 {
                let recent = try segments.recentRows(in: db)
                var top = next
                let kind = generator.next() % 6
                for owner in model.keys.sorted() {
                    if kind == 5 || round == 0 || model[owner]!.isEmpty {
                        // An append above every entry; a token without segments takes them in its segments.
                        var adding: [Int64] = []
                        var number = next
                        for _ in 0..<(owner == 1 ? 2_500 : 1 + Int(generator.next() % 90)) {
                            number += 1 + Int64(generator.next() % 3)
                            adding.append(number)
                        }
                        let isNew = model[owner]!.isEmpty
                        _ = try segments.update(
                            owner: owner, adding: postings(adding, version: UInt32(round)), removing: [],
                            tails: &tails, isNew: isNew, aboveEveryEntry: true, recent: recent, in: db)
                        for number in adding { model[owner]![number] = UInt32(round) }
                        top = max(top, number)
                    } else if kind < 4 {
                        // An edit: some entries taken out, one given new positions.
                        let numbers = model[owner]!.keys.sorted()
                        let removing = numbers.filter { _ in generator.next() % 9 == 0 }
                        let replaced =
                            numbers.filter { !removing.contains($0) }.randomElement(using: &generator)
                            .map { [$0] } ?? []
                        _ = try segments.update(
                            owner: owner, adding: postings(replaced, version: UInt32(round)), removing: removing,
                            tails: &tails, recent: recent, in: db)
                        for number in removing { model[owner]![number] = nil }
                        for number in replaced { model[owner]![number] = UInt32(round) }
                    }
                }
                next = top + 1
                if kind == 4 { try segments.mergeAllRecent(tails: &tails, in: db) }
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM posting_recent") ?? 0 > 0 { sawRecent = true }
                try expectModel(model, segments: segments, in: db)
            }
        }
        #expect(sawRecent)
    }

    private func expectModel(_ model: [Int64: [Int64: UInt32]], segments: PostingSegments, in db: Database) throws {
        // Every owner's entries together, in one statement, whole and within windows.
        let every = model.values.flatMap(\.keys)
        let (first, last) = (every.min() ?? 0, every.max() ?? 0)
        let windows: [ClosedRange<Int64>?] = [
            nil, (first + (last - first) / 3)...(last - (last - first) / 4), 100...100,
        ]
        for window in windows {
            var united = DocumentSet(maximum: 1 << 20)
            try segments.unite(owners: model.keys.sorted(), into: &united, within: window, in: db)
            let expected = Set(every.filter { window?.contains($0) ?? true }).sorted()
            #expect(united.members == expected, "\(String(describing: window))")
        }
        let counts = try segments.documentCounts(in: db)
        for (owner, entries) in model {
            let numbers = entries.keys.sorted()
            #expect(counts[owner] ?? 0 == numbers.count)
            var set = DocumentSet(maximum: 1 << 20)
            try segments.unite(owner: owner, into: &set, in: db)
            #expect(set.members == numbers)
            // Recent segments start above the segments' last number (the invariant).
            let segmentsLast = try segments.lastSegment(of: owner, in: db)?.last ?? 0
            if let recentFirst = try Int64.fetchOne(
                db, sql: "SELECT min(id) & 0xFFFFFFFF FROM posting_recent WHERE id >> 32 = ?", arguments: [owner])
            {
                #expect(recentFirst > segmentsLast)
            }
            // Each entry's positions, through the lists of all the owner's segments.
            var lists: [Int64: [UInt32]] = [:]
            var list: [UInt32] = []
            try segments.forEachPositionList(owners: [owner], within: 0...(1 << 20), in: db) { number, encoded in
                #expect(PositionLists.decode(encoded, into: &list))
                lists[number] = list
            }
            #expect(lists == Dictionary(uniqueKeysWithValues: entries.map { ($0, positions(of: $0, version: $1)) }))
            // A window in the middle, by counts and membership as a short word's total is read.
            guard let low = numbers.first, let high = numbers.last else { continue }
            let window = (low + (high - low) / 3)...(high - (high - low) / 4)
            var membership = PostingMembership(segments, owner: owner, in: db)
            var inWindow = 0
            for segment in try segments.segmentCounts(owner: owner, within: window, in: db) {
                inWindow += try membership.numbers(ofSegmentStartingAt: segment.first).filter(window.contains).count
            }
            #expect(inWindow == numbers.filter(window.contains).count)
            for number in [low, window.lowerBound, high, high + 1] {
                #expect(try membership.contains(number) == (entries[number] != nil))
            }
            // A cursor stepping to every other entry of the window.
            var cursor = try PositionCursor(token: owner, within: window, reader: 0, in: db)
            for number in numbers.filter(window.contains).enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
                var found: [UInt32] = []
                #expect(try cursor.positions(at: number, appendingTo: &found))
                #expect(found == positions(of: number, version: entries[number]!))
            }
            // A cursor asked for entries thousands apart, for one it doesn't have next to each,
            // and for one past the last.
            var sparse = try PositionCursor(token: owner, within: window, reader: 1, in: db)
            for number in numbers.filter(window.contains).enumerated().filter({ $0.offset % 2_500 == 0 }).map(\.element)
            {
                var found: [UInt32] = []
                #expect(try sparse.positions(at: number, appendingTo: &found))
                #expect(found == positions(of: number, version: entries[number]!))
                #expect(try entries[number + 1] != nil || !sparse.positions(at: number + 1, appendingTo: &found))
            }
            var past: [UInt32] = []
            #expect(try !sparse.positions(at: window.upperBound + 1_000_000, appendingTo: &past))
            // A cursor asked only for the first number of every third segment and the number
            // before it: the segments between are passed over undecoded, not lost.
            let firsts = try segments.segmentCounts(owner: owner, within: window, in: db).map(\.first)
            var jumping = try PositionCursor(token: owner, within: window, reader: 2, in: db)
            for first in firsts.enumerated().filter({ $0.offset % 3 == 2 }).map(\.element) {
                for number in [first - 1, first] {
                    var found: [UInt32] = []
                    #expect(try jumping.positions(at: number, appendingTo: &found) == (entries[number] != nil))
                    #expect(found == (entries[number].map { positions(of: number, version: $0) } ?? []))
                }
            }
        }
    }

    /// An import into a journal leaves its entries' postings in recent segments, which searches
    /// read, `verify` accepts, an edit and a deletion merge for the tokens they touch, and which
    /// are merged whole once they hold more than half of the journal's entries.
    @Test func aJournalReadsRecentSegmentsUntilTheyAreMerged() throws {
        let store = try TemporaryJournal()
        let texts = (0..<40).map { "alpha beta gamma \($0) " + String(repeating: "word\($0 % 5) ", count: 3) }
        try store.importTexts(texts)
        func recentRows() throws -> Int {
            try store.journal.search.pool.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT (SELECT count(*) FROM posting_recent) + (SELECT count(*) FROM prefix_posting_recent)")
                    ?? 0
            }
        }
        #expect(try recentRows() == 0)
        try store.importTexts(["alpha delta one", "beta delta two", "alpha beta \"gamma\" three"])
        #expect(try recentRows() > 0)
        #expect(try store.journal.search("alpha").total == 42)
        #expect(try store.journal.search("de").total == 2)
        #expect(try store.journal.search("\"alpha beta\"").total == 41)
        try store.expectConsistent()
        // An edit that takes `alpha` out of a new entry, and a deletion of an old one.
        let newest = try store.journal.search("delta one").entries[0].id
        _ = try store.journal.edit(newest, text: "omega delta one")
        try store.journal.delete(try store.journal.search("\"gamma 7\"").entries[0].id)
        #expect(try store.journal.search("alpha").total == 40)
        #expect(try store.journal.search("omega").total == 1)
        try store.expectConsistent()
        // Thirty more: 33 of 72 are recent, not more than half; ten more: 43 of 82, all merged.
        try store.importTexts((0..<30).map { "alpha epsilon \($0)" })
        #expect(try recentRows() > 0)
        try store.importTexts((30..<40).map { "alpha epsilon \($0)" })
        #expect(try recentRows() == 0)
        #expect(try store.journal.search("alpha").total == 80)
        #expect(try store.journal.search("ep").total == 40)
        try store.expectConsistent()
    }

    /// `verify` finds recent segments that do not follow their owner's others, which readers
    /// would read out of order, though every link is there.
    @Test func verifyFindsRecentSegmentsOutOfOrder() throws {
        let store = try TemporaryJournal()
        try store.importTexts((0..<8).map { "alpha beta \($0)" })
        try store.importTexts(["alpha gamma"])
        #expect(try store.journal.verify().isConsistent)
        try store.journal.search.pool.write { db in
            let owner = try #require(try Int64.fetchOne(db, sql: "SELECT id >> 32 FROM posting_recent LIMIT 1"))
            try db.execute(
                sql: "INSERT INTO posting_recent SELECT * FROM posting WHERE id >> 32 = ?", arguments: [owner])
            try db.execute(sql: "DELETE FROM posting WHERE id >> 32 = ?", arguments: [owner])
        }
        #expect(
            try store.journal.verify().problems == ["1 tokens have recent postings that do not follow their others"])
    }
}
