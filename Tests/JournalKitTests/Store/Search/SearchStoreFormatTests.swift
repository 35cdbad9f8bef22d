import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

/// A search store written by an earlier format is brought to the current one when the journal
/// opens (emptied and rebuilt from the entries with progress, or changed in place) and answers
/// as before.
@Suite struct SearchStoreFormatTests {
    /// Puts the search store back as format v11 (`v11-uri-once`) left it: each token's text
    /// twice, in a table by id and in its unique index, no list of the tokens added since the
    /// prefix table's file, the newer migration not applied.
    private func downgradeToPreviousFormat(_ store: TemporaryJournal) throws {
        try putBackInIDOrder("token", dropping: "DROP TABLE token_added", undoing: "v12-token-text-once", in: store)
    }

    /// Makes `table` (of texts and ids, keyed by text) a table by id with an AUTOINCREMENT and
    /// a unique index on the text, as formats before `migration` kept it, runs `dropping` and
    /// marks `migration` not applied.
    private func putBackInIDOrder(
        _ table: String, dropping: String, undoing migration: String, in store: TemporaryJournal
    ) throws {
        try store.journal.search.pool.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE \(table)_by_id (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL UNIQUE);
                    INSERT INTO \(table)_by_id (id, text) SELECT id, text FROM \(table) ORDER BY id;
                    DROP TABLE \(table); \(dropping);
                    ALTER TABLE \(table)_by_id RENAME TO \(table);
                    DELETE FROM grdb_migrations WHERE identifier = ?;
                    """,
                arguments: [migration])
        }
    }

    /// Whether `table` is kept in the order of its key (`WITHOUT ROWID`), as the statement that
    /// made it says.
    private func isKeyedByText(_ table: String, in store: TemporaryJournal) throws -> Bool {
        try store.journal.search.pool.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = ?", arguments: [table])
        }?.hasSuffix("WITHOUT ROWID") == true
    }

    /// Opens the journal again, as a command would; returns how many entries the indexing its
    /// progress reported (0 when the store was changed in place, not rebuilt).
    private func reopenCountingIndexed(_ store: TemporaryJournal) throws -> Int {
        let phases = ProgressLog()
        try store.reopen(progress: phases.handler)
        return phases.indexed
    }

    @Test(arguments: [nil, "correct horse"])
    func aStoreOfThePreviousFormatIsRebuiltWithProgressAndAnswersTheSame(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        for entry in SyntheticJournal(count: 300, seed: 60) { try store.journal.add(entry) }
        let queries = try ["the", "\"on the\"", "a OR b", "NOT the", "de*"].map { try SearchQuery($0) }
        let before = try answers(queries, in: store)
        try downgradeToPreviousFormat(store)

        #expect(try reopenCountingIndexed(store) == 300, "the rebuild reports every entry")
        #expect(try isKeyedByText("token", in: store))
        try expectAnswers(queries, as: before, in: store)
    }

    /// Each of `queries` answered now, up to 500 entries.
    private func answers(_ queries: [SearchQuery], in store: TemporaryJournal) throws -> [SearchResults] {
        try queries.map { try store.journal.search($0, page: PageRequest(limit: 500)) }
    }

    /// Each of `queries` answers as `before` did (its total and entries, in order), and the
    /// journal verifies.
    private func expectAnswers(
        _ queries: [SearchQuery], as before: [SearchResults], in store: TemporaryJournal,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (query, (now, earlier)) in zip(queries, zip(try answers(queries, in: store), before)) {
            #expect(now.total == earlier.total, "\(query.text)", sourceLocation: sourceLocation)
            #expect(now.entries.map(\.id) == earlier.entries.map(\.id), "\(query.text)", sourceLocation: sourceLocation)
        }
        let report = try store.journal.verify()
        #expect(report.isConsistent, "\(report.problems)", sourceLocation: sourceLocation)
    }

    /// Puts the search store back as format v12 (`v12-token-text-once`) left it: each day's
    /// documents in number order (its runs' bounds as a DeltaList), and an index on the date.
    private func downgradeToFormat12(_ store: TemporaryJournal) throws {
        try store.journal.search.pool.writeWithoutTransaction { db in
            let days = try Row.fetchAll(db, sql: "SELECT day, runs FROM date_bucket")
            for day in days {
                var numbers: [Int64] = []
                DateBuckets.forEachRun(in: day["runs"]) { numbers += $0 }
                var bounds: [Int64] = []
                for number in numbers.sorted() {
                    if bounds.last == number {
                        bounds[bounds.count - 1] = number + 1
                    } else {
                        bounds += [number, number + 1]
                    }
                }
                try db.execute(
                    sql: "UPDATE date_bucket SET runs = ? WHERE day = ?",
                    arguments: [DeltaList.encode(bounds), day["day"] as Int64])
            }
            try db.execute(
                sql: """
                    CREATE INDEX document_by_date ON document(date);
                    DELETE FROM grdb_migrations WHERE identifier = 'v13-days-in-date-order';
                    """)
        }
    }

    /// A store of format v12 is changed in place, not rebuilt: the days put in date order and
    /// the date index dropped; searches newest first, with and without dates, answer the same.
    @Test(arguments: [nil, "correct horse"])
    func aStoreOfFormat12KeepsItsDocumentsAndAnswersTheSame(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        for entry in SyntheticJournal(count: 300, seed: 62) { try store.journal.add(entry) }
        let instant = { (text: String) in JournalDate(iso8601: text)! }
        let queries = try [
            SearchQuery("the"), SearchQuery("\"on the\""), SearchQuery("a OR b"), SearchQuery("de*"),
            SearchQuery("the", filter: EntryFilter(from: instant("2010-02-10T12:00:00Z"))),
            SearchQuery(
                "a",
                filter: EntryFilter(from: instant("2008-01-20T05:00:00Z"), until: instant("2015-03-02T18:00:00Z"))),
        ]
        let before = try answers(queries, in: store)
        #expect(before.allSatisfy { $0.total > 0 })
        try downgradeToFormat12(store)

        #expect(try reopenCountingIndexed(store) == 0, "no rebuild")
        let index = try store.journal.search.pool.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM sqlite_schema WHERE name = 'document_by_date'")
        }
        #expect(index == nil)
        try expectAnswers(queries, as: before, in: store)
    }

    /// Puts the search store back as format v13 (`v13-days-in-date-order`) left it: the prefix
    /// keys in a table by id with an AUTOINCREMENT, each text again in a unique index.
    private func downgradeToFormat13(_ store: TemporaryJournal) throws {
        try putBackInIDOrder(
            "prefix_key", dropping: "DELETE FROM sqlite_sequence WHERE name = 'prefix_key'",
            undoing: "v14-prefix-key-text-once", in: store)
    }

    /// A store of format v13 is changed in place, not rebuilt: its prefix keys keep their ids
    /// in a table keyed by their texts, a key added after takes an id never given, and a key no
    /// entry has any more goes.
    @Test(arguments: [nil, "correct horse"])
    func aStoreOfFormat13KeepsItsPrefixKeysAndAnswersTheSame(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        for entry in SyntheticJournal(count: 300, seed: 63) { try store.journal.add(entry) }
        let queries = try ["the", "\"on the\"", "a OR b", "de", "t", "zyq"].map { try SearchQuery($0) }
        let keys = { () throws -> [String: Int64] in
            try store.journal.search.pool.read { db in
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT text, id FROM prefix_key").map {
                        ($0[0] as String, $0[1] as Int64)
                    })
            }
        }
        let before = try answers(queries, in: store)
        let keysBefore = try keys()
        try downgradeToFormat13(store)

        #expect(try reopenCountingIndexed(store) == 0, "no rebuild")
        #expect(try isKeyedByText("prefix_key", in: store))
        #expect(try keys() == keysBefore)
        try expectAnswers(queries, as: before, in: store)

        // Two tokens that start alike: their keys have rows (one token's would not).
        let added = try store.journal.add(NewEntry(text: "zyqqa zyqqb"))
        let keysAfter = try keys()
        let largestBefore = keysBefore.values.max() ?? 0
        for key in ["zyq", "zy", "z"] where keysBefore[key] == nil {
            #expect((keysAfter[key] ?? 0) > largestBefore, "\(key)")
        }
        #expect(Set(keysAfter.values).count == keysAfter.count, "an id given twice")
        #expect(try store.journal.search(SearchQuery("zyq")).total == 1)
        try store.journal.delete(added.id)
        #expect(try keys()["zyq"] == nil)
        #expect(try store.journal.search(SearchQuery("zyq")).total == 0)
        let report = try store.journal.verify()
        #expect(report.isConsistent, "\(report.problems)")
    }

    /// Puts the search store back as format v14 (`v14-prefix-key-text-once`) left it: a row and
    /// postings for every prefix key, those of a key of one token copied from the token's.
    /// Returns how many keys it gave a row.
    private func downgradeToFormat14(_ store: TemporaryJournal) throws -> Int {
        try store.journal.search.pool.writeWithoutTransaction { db in
            let keys = Set(try String.fetchAll(db, sql: "SELECT text FROM prefix_key"))
            var next = try SearchStoreWriter.largestID(of: .prefixKey, in: db) + 1
            var added = 0
            for row in try Row.fetchAll(db, sql: "SELECT text, id FROM token ORDER BY text") {
                for key in Tokens.prefixKeys(of: [row[0]]) where !keys.contains(key) {
                    try db.execute(sql: "INSERT INTO prefix_key (text, id) VALUES (?, ?)", arguments: [key, next])
                    try db.execute(
                        sql: """
                            INSERT INTO prefix_posting (id, count, documents)
                            SELECT (?1 << 32) | (id & 4294967295), count, documents FROM posting WHERE id >> 32 = ?2
                            """,
                        arguments: [next, row[1] as Int64])
                    try SearchStoreWriter.keepLargestID(next, of: .prefixKey, in: db)
                    (next, added) = (next + 1, added + 1)
                }
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v15-keys-of-one-token-unlisted'")
            return added
        }
    }

    /// A store of format v14 loses the rows and postings of the prefix keys that one token
    /// starts with, in place, and answers the same from the tokens'.
    @Test func aStoreOfFormat14LosesTheListsOfKeysOfOneTokenAndAnswersTheSame() throws {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: 300, seed: 64) { try store.journal.add(entry) }
        try store.journal.add(NewEntry(text: "zyqqa quixotry"))
        let queries = try ["zyq", "zy", "z", "qui", "quix", "\"zyqqa q\"", "the", "de"].map { try SearchQuery($0) }
        let before = try answers(queries, in: store)
        #expect(before[0].total == 1)
        let count = { () throws -> Int in
            try store.journal.search.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM prefix_key") ?? 0
            }
        }
        let keys = try count()
        let added = try downgradeToFormat14(store)
        #expect(added > 0)
        #expect(try count() == keys + added)

        #expect(try reopenCountingIndexed(store) == 0, "no rebuild")
        #expect(try count() == keys)
        try expectAnswers(queries, as: before, in: store)
    }

    /// A store of format v15, whose prefix keys keep no positions, is rebuilt with progress:
    /// its keys of two code points then keep them, and phrases whose last word is such a key
    /// (one that more tokens start with than get a reader each) answer as before.
    @Test(arguments: [nil, "correct horse"])
    func aStoreOfFormat15IsRebuiltWithPositionsForKeysOfTwoCodePoints(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        let entries = Array(SyntheticJournal(count: 300, seed: 65))
        for entry in entries { try store.journal.add(entry) }
        let keyTexts = Set(
            try store.journal.search.pool.read { db in
                try String.fetchAll(db, sql: "SELECT text FROM prefix_key").filter {
                    try PostingOwner.keepsPositions(key: $0)
                        && TokenRange.ids(startingWith: $0, in: db).count > PhraseMatch.cursorLimit
                }
            })
        // Two words of an entry side by side, the second cut to such a key: one phrase a key.
        var phrases: [String: String] = [:]
        for words in entries.map({ WordsReference.words(of: $0.text) }) where words.count > 1 {
            for (word, next) in zip(words, words.dropFirst()) {
                let key = String(String.UnicodeScalarView(next.unicodeScalars.prefix(2)))
                if keyTexts.contains(key), phrases[key] == nil { phrases[key] = "\"\(word) \(key)\"" }
            }
        }
        #expect(phrases.count >= 4)
        let queries = try (["\"on the\"", "the"] + phrases.values.sorted().prefix(8)).map { try SearchQuery($0) }
        let before = try answers(queries, in: store)
        #expect(before.allSatisfy { $0.total > 0 })
        let positionBytes = {
            try store.journal.search.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT sum(length(positions)) FROM prefix_posting") ?? 0
            }
        }
        #expect(try positionBytes() > 0)
        try store.journal.search.pool.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    ALTER TABLE prefix_posting DROP COLUMN positions;
                    ALTER TABLE prefix_posting_recent DROP COLUMN positions;
                    ALTER TABLE prefix_posting_run DROP COLUMN positions;
                    DELETE FROM grdb_migrations WHERE identifier = 'v16-prefix-key-positions';
                    """)
        }

        #expect(try reopenCountingIndexed(store) == 300, "the rebuild reports every entry")
        #expect(try positionBytes() > 0)
        try expectAnswers(queries, as: before, in: store)
    }

    /// A store of format 16, whose segments hold their first entry number in their bytes as
    /// well as in their ids, is rebuilt with segments that leave it out, and answers as before.
    @Test(arguments: [nil, "correct horse"])
    func aStoreOfFormat16IsRebuiltWithSegmentsThatLeaveTheirFirstNumberOut(passphrase: String?) throws {
        let store = try TemporaryJournal(passphrase: passphrase)
        for entry in SyntheticJournal(count: 300, seed: 66) { try store.journal.add(entry) }
        let queries = try ["\"on the\"", "the", "t", "on th", "\"the w\""].map { try SearchQuery($0) }
        let before = try answers(queries, in: store)
        #expect(before.allSatisfy { $0.total > 0 })
        let tables = ["posting", "prefix_posting", "posting_recent", "prefix_posting_recent"]
        let documentBytes = {
            try store.journal.search.pool.read { db in
                try tables.reduce(0) { sum, table in
                    try sum + (Int.fetchOne(db, sql: "SELECT sum(length(documents)) FROM \(table)") ?? 0)
                }
            }
        }
        try store.journal.search.pool.writeWithoutTransaction { db in
            for table in tables {
                for row in try Row.fetchAll(db, sql: "SELECT id, documents FROM \(table)") {
                    let numbers = DeltaList.decode(row[1], first: PostingSegments.first(ofSegment: row[0]))
                    try db.execute(
                        sql: "UPDATE \(table) SET documents = ? WHERE id = ?",
                        arguments: [DeltaList.encode(numbers), row[0] as Int64])
                }
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v17-segment-first-in-id'")
        }
        let bytesOfFormat16 = try documentBytes()

        #expect(try reopenCountingIndexed(store) == 300, "the rebuild reports every entry")
        #expect(try documentBytes() < bytesOfFormat16)
        let segmentsOfOne = try store.journal.search.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT count(*), sum(length(documents)) FROM posting WHERE count = 1")
        }
        #expect(segmentsOfOne?[0] as Int? ?? 0 > 0)
        #expect(segmentsOfOne?[1] as Int? == 0, "a segment of one entry holds no number")
        try expectAnswers(queries, as: before, in: store)
    }

    /// The URI of every document, as the store's `document_uri` view gives it, is the entry's.
    @Test func everyDocumentsURIIsItsEntrysURI() throws {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: 20, seed: 61) { try store.journal.add(entry) }
        let uris = try store.journal.search.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, uri FROM document_uri ORDER BY id").map {
                ($0[0] as Int64, $0[1] as String)
            }
        }
        #expect(uris.count == 20)
        for (number, uri) in uris {
            #expect(uri == EntryID(storeID: store.journal.storeID, number: number).uri)
        }
    }
}

/// The progress a journal reports, as a command's progress line hears it.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var largestIndexed = 0

    var indexed: Int { lock.withLock { largestIndexed } }

    var handler: ProgressHandler {
        { [self] progress in
            guard progress.phase == .indexing else { return }
            lock.withLock { largestIndexed = max(largestIndexed, progress.done) }
        }
    }
}
