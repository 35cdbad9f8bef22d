import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct SearchStoreWriterTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value ANY NOT NULL) WITHOUT ROWID;
                    CREATE TABLE document (id INTEGER PRIMARY KEY, uri TEXT NOT NULL, date INTEGER NOT NULL, tokens BLOB NOT NULL);
                    CREATE TABLE token (text TEXT NOT NULL PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE token_added (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL);
                    CREATE TABLE prefix_snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1), max_token_id INTEGER NOT NULL,
                        token_count INTEGER NOT NULL, file_tag TEXT NOT NULL
                    );
                    """)
        }
        return queue
    }

    /// Texts looked up and added several statements' worth at a time (fewer than a quarter of the
    /// table's rows), some known to the store and some not, come back with one id each, in order:
    /// the known ones with their ids, the new ones with ids past every earlier one; asked again,
    /// by a process that has no cache, the same ids.
    @Test func resolvesTextsAcrossChunksKnownOrNew() throws {
        let queue = try makeDatabase()
        let texts = (0..<1_203).map { "word\($0)" }
        let known = texts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let (knownIDs, ids) = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            _ = try writer.resolve((0..<6_000).map { "other\($0)" }, cache: &cache)
            let knownIDs = try writer.resolve(known, cache: &cache)
            var fresh = OwnerIDCache(.token)
            return (knownIDs, try writer.resolve(texts, cache: &fresh))
        }
        #expect(Set(knownIDs).count == known.count)
        let byText = Dictionary(uniqueKeysWithValues: zip(texts, ids))
        #expect(zip(known, knownIDs).allSatisfy { byText[$0.0] == $0.1 })
        #expect(Set(ids).count == texts.count)
        let largestKnown = knownIDs.max() ?? 0
        #expect(texts.indices.filter { $0 % 3 != 0 }.allSatisfy { ids[$0] > largestKnown })
        let again = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            return try writer.resolve(texts.reversed(), cache: &cache)
        }
        #expect(again == ids.reversed())
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token") } == 6_000 + texts.count)
    }

    /// A few texts are looked up a statement at a time, many by one walk along the table's index
    /// by text: both find the same ids for texts the table holds (before its first, after its last,
    /// prefixes of one another, beyond ASCII) and add the others once, in `BINARY` order.
    @Test func findsTheSameIDsLookingUpFewTextsOrWalkingForMany() throws {
        let queue = try makeDatabase()
        let stored = ["b", "ba", "bab", "bb", "c", "ca", "é", "éa", "z", "zz", "ω", "東京"]
        let storedIDs = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            return try writer.resolve(stored, cache: &cache)
        }
        let byText = Dictionary(uniqueKeysWithValues: zip(stored, storedIDs))
        let asked = ["a", "b", "baa", "bab", "bac", "bb", "c", "caa", "d", "éa", "ê", "zz", "zzz", "ω", "東京", "東"]
        for (texts, statement) in [(["bab", "zzz"], "WHERE text IN"), (asked, "WHERE text >=")] {
            var statements: [String] = []
            let ids = try queue.write { db in
                var writer = try SearchStoreWriter(db: db, rows: RowProducer())
                var cache = OwnerIDCache(.token)
                db.trace(options: .statement) { statements.append("\($0)") }
                defer { db.trace(options: []) }
                return try writer.resolve(texts, cache: &cache)
            }
            #expect(statements.contains { $0.contains(statement) }, "\(statements)")
            for (text, id) in zip(texts, ids) {
                if let known = byText[text] { #expect(id == known, "\(text)") } else { #expect(id > storedIDs.max()!) }
            }
            let inTable = try queue.read { db in
                try texts.map { try Int64.fetchOne(db, sql: "SELECT id FROM token WHERE text = ?", arguments: [$0]) }
            }
            #expect(inTable == ids.map { Optional($0) })
        }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token") } == Set(stored + asked).count)
    }

    /// A cache that began on an empty table adds the texts it lacks without looking them up,
    /// batch after batch; once it has forgotten ids (or began on a table with rows), it looks
    /// them up again, and adds none twice.
    @Test func aCacheThatHoldsEveryRowAddsWithoutLookingUp() throws {
        let queue = try makeDatabase()
        let first = (0..<700).map { "first\($0)" }
        let second = first.suffix(300) + (0..<900).map { "second\($0)" }
        var cache = OwnerIDCache(.token)
        var lookups = 0
        let (firstIDs, secondIDs) = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            try cache.validate(in: db)
            db.trace(options: .statement) { if "\($0)".hasPrefix("SELECT id") { lookups += 1 } }
            defer { db.trace(options: []) }
            let firstIDs = try writer.resolve(first, cache: &cache)
            try cache.validate(in: db)
            return (firstIDs, try writer.resolve(Array(second), cache: &cache))
        }
        #expect(lookups == 0)
        #expect(Array(secondIDs.prefix(300)) == Array(firstIDs.suffix(300)))
        #expect(Set(firstIDs + secondIDs).count == 1_600)
        #expect(secondIDs.dropFirst(300).allSatisfy { $0 > firstIDs.max()! })
        cache.limit(to: 10)
        let all = first + second.dropFirst(300)
        let again = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            try cache.validate(in: db)
            db.trace(options: .statement) { if "\($0)".hasPrefix("SELECT id") { lookups += 1 } }
            defer { db.trace(options: []) }
            return try writer.resolve(all.reversed(), cache: &cache)
        }
        #expect(lookups == 1, "as many texts as the table has rows: one walk along its index")
        #expect(again == (firstIDs + secondIDs.dropFirst(300)).reversed())
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token") } == 1_600)
    }

    /// A cache that remembers no added ids (a catch-up's last batch) no longer holds every row:
    /// a batch that comes after all (a change committed meanwhile) looks its texts up, and adds
    /// none twice.
    @Test func aCacheThatRemembersNoAddedIDsLooksThemUpAfter() throws {
        let queue = try makeDatabase()
        var cache = OwnerIDCache(.token)
        var lookups = 0
        let (firstIDs, secondIDs) = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            try cache.validate(in: db)
            cache.remembersAdded = false
            db.trace(options: .statement) { if "\($0)".hasPrefix("SELECT id") { lookups += 1 } }
            defer { db.trace(options: []) }
            let firstIDs = try writer.resolve(["alpha", "beta"], cache: &cache)
            #expect(lookups == 0, "the cache held every row when the batch began")
            cache.remembersAdded = true
            try cache.validate(in: db)
            return (firstIDs, try writer.resolve(["beta", "gamma"], cache: &cache))
        }
        #expect(lookups == 1)
        #expect(secondIDs[0] == firstIDs[1] && secondIDs[1] > firstIDs.max()!)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token") } == 3)
    }

    /// A new text's id is past every id the table ever gave, those of removed rows too (the
    /// prefix table refers to tokens by id): the writer chooses the ids it inserts, whether it
    /// lists the new tokens for a saved prefix table's file or, with none saved, does not.
    @Test(arguments: [false, true]) func neverGivesARemovedIDAgain(withSavedFile: Bool) throws {
        let queue = try makeDatabase()
        if withSavedFile {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO prefix_snapshot VALUES (1, 0, 0, ?)", arguments: [UUID().uuidString])
            }
        }
        let (removed, next) = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            let ids = try writer.resolve(["alpha", "beta", "gamma"], cache: &cache)
            try db.execute(sql: "DELETE FROM token WHERE id >= ?", arguments: [ids[1]])
            try db.execute(sql: "DELETE FROM token_added WHERE id >= ?", arguments: [ids[1]])
            var fresh = OwnerIDCache(.token)
            return (ids[2], try writer.resolve(["alpha", "delta"], cache: &fresh))
        }
        #expect(next[1] > removed)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token") } == 2)
        let listed = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM token_added") }
        #expect(listed == (withSavedFile ? 2 : 0))
    }

    /// New texts take ids in the order SQLite keeps the table (`BINARY`, the bytes'), not the
    /// order the batch met them: the rows by text and the list by id then both grow at their ends.
    @Test func givesNewTextsIdsInTheirIndexOrder() throws {
        let queue = try makeDatabase()
        let texts = ["pear", "\u{1F600}", "apple", "\u{FFFF}", "caf\u{E9}", "cafe\u{301}", "app"]
        let ids = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            return try writer.resolve(texts, cache: &cache)
        }
        let byID = zip(ids, texts).sorted { $0.0 < $1.0 }.map(\.1)
        let byIndex = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT CAST(text AS BLOB) FROM token")
                .map { String(decoding: $0[0] as Data, as: UTF8.self) }
        }
        #expect(byID.map { Array($0.utf8) } == byIndex.map { Array($0.utf8) })
        #expect(byIndex.first == "app" && byIndex.last == "\u{1F600}")
    }

    /// Texts that Swift calls equal but whose code points differ (composed and decomposed
    /// accents) are two tokens, as they are two rows of the table.
    @Test func tellsTextsApartByCodePoints() throws {
        let queue = try makeDatabase()
        let texts = ["caf\u{E9}", "cafe\u{301}"]
        let ids = try queue.write { db in
            var writer = try SearchStoreWriter(db: db, rows: RowProducer())
            var cache = OwnerIDCache(.token)
            _ = try writer.resolve([texts[1]], cache: &cache)
            var fresh = OwnerIDCache(.token)
            return try writer.resolve(texts, cache: &fresh)
        }
        #expect(ids.count == 2 && ids[0] != ids[1])
        let stored = try queue.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, CAST(text AS BLOB) FROM token").map {
                    ($0[0] as Int64, [UInt8]($0[1] as Data))
                })
        }
        #expect(stored[ids[0]] == Array(texts[0].utf8))
        #expect(stored[ids[1]] == Array(texts[1].utf8))
    }

    /// The prefix keys that have a row, each with the entries its postings hold.
    private func keyRows(_ journal: Journal) throws -> [String: [Int64]] {
        try journal.search.pool.read { db in
            var rows: [String: [Int64]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT text, id FROM prefix_key") {
                var documents: [Int64] = []
                try PostingSegments.prefixKeys.forEachList(of: row[1], in: db) { first, list in
                    documents += DeltaList.decode(list, first: first)
                }
                rows[row[0]] = documents
            }
            return rows
        }
    }

    /// A prefix key that one token starts with has no row: the token's postings answer it. The
    /// batch that brings a second token gives it one, with the entries of the token the store
    /// held, whether written by an earlier catch-up or staged by an earlier batch of the same
    /// insert; once no entry has the key, the row goes.
    @Test(arguments: [1, 20]) func aKeyOfOneTokenHasARowOnceASecondTokenStartsWithIt(runsPerMerge: Int) throws {
        let store = try TemporaryJournal()
        try store.importTexts(["zebra alpha", "zebra beta"])
        #expect(try keyRows(store.journal) == [:])
        for word in ["z", "ze", "zeb", "zebra", "al"] { #expect(try store.journal.search(SearchQuery(word)).total > 0) }
        _ = try store.journal.main.insert(MainStore.WriteHooks(pruningThrough: 0)) { insert in
            for text in ["zygote one", "filler two", "filler three", "zymurgy four", "filler five", "zeal six"] {
                try insert(PreparedEntry(text: text))
            }
        }
        try SearchIndexer(
            main: store.journal.main, search: store.journal.search, batchSize: 2,
            mergePolicy: MergePolicy(runsPerMerge: runsPerMerge)
        ).catchUp()
        let entries = try store.allEntries().sorted { $0.id.number < $1.id.number }.map(\.id.number)
        let rows = try keyRows(store.journal)
        // "z": zebra's two entries (written before), with zygote's, zymurgy's and zeal's.
        #expect(rows["z"] == [entries[0], entries[1], entries[2], entries[5], entries[7]])
        // "zy": zygote's entry, staged (or written) a batch before zymurgy came.
        #expect(rows["zy"] == [entries[2], entries[5]])
        #expect(rows["ze"] == [entries[0], entries[1], entries[7]])
        #expect(rows["f"] == [entries[3], entries[4], entries[5], entries[6]])
        #expect(rows["fi"] == [entries[3], entries[4], entries[6]])
        for key in ["zyg", "zym", "zeb", "zea", "fil", "fo", "o", "a"] { #expect(rows[key] == nil, "\(key)") }
        let totals = try ["z", "zy", "zyg", "ze", "zea", "fi", "o"].map {
            try store.journal.search(SearchQuery($0)).total
        }
        #expect(totals == [5, 2, 1, 3, 1, 3, 1])
        try store.expectConsistent()

        let ids = try store.allEntries().sorted { $0.id.number < $1.id.number }.map(\.id)
        try store.journal.delete(ids[2])
        #expect(try keyRows(store.journal)["zy"] == [entries[5]])
        #expect(try store.journal.search(SearchQuery("zy")).total == 1)
        try store.journal.delete(ids[5])
        #expect(try keyRows(store.journal)["zy"] == nil)
        #expect(try store.journal.search(SearchQuery("zy")).total == 0)
        try store.expectConsistent()
    }

    /// A key whose one token comes to hold more entries than a key of one token goes without
    /// a row for is given its row, with all of them, by the next batch that uses it.
    @Test func aKeyOfOneTokenOfManyEntriesHasARowFromTheNextBatchOn() throws {
        let store = try TemporaryJournal()
        let many = SearchStoreWriter.entriesOfAKeyOfOneToken + 1
        try store.importTexts(Array(repeating: "solo", count: many))
        #expect(try keyRows(store.journal)["sol"] == nil)
        try store.journal.add(NewEntry(text: "solo again"))
        let rows = try keyRows(store.journal)
        #expect(rows["sol"]?.count == many + 1)
        #expect(rows["s"] == rows["sol"])
        #expect(rows["aga"] == nil)
        #expect(try store.journal.search(SearchQuery("sol")).total == many + 1)
        try store.expectConsistent()
    }

    /// Random rounds of adds, edits, deletes and inserts indexed in small batches (written, or
    /// staged in runs and merged) over words that share their first code points, so that keys
    /// come and go between one token and several: after each, every key of one to three code
    /// points finds the entries that have a token starting with it, and the store holds the
    /// keys' invariant; `verify` agrees every few rounds.
    @Test func keysFollowTheirTokensThroughRandomChanges() throws {
        let words = [
            "zebra", "zeal", "zest", "zygote", "zymurgy", "able", "abbey", "abacus", "lone", "solo", "sol", "s",
            "кто", "когда", "кот", "καλός", "και", "東京", "東", "ǆ", "ßa",
        ]
        let keys = Set(
            words.flatMap { word in (1...3).map { String(word.unicodeScalars.prefix($0).map(Character.init)) } })
        var generator = SplitMix64(seed: 40)
        func text() -> String {
            (0..<(1 + Int(generator.next() % 4))).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                .joined(separator: " ")
        }
        let store = try TemporaryJournal()
        for round in 0..<36 {
            let entries = try store.allEntries()
            switch generator.next() % 5 {
            case 0 where !entries.isEmpty:
                let entry = entries[Int(generator.next() % UInt64(entries.count))]
                _ = try store.journal.edit(entry.id, text: text())
            case 1 where entries.count > 3:
                try store.journal.delete(entries[Int(generator.next() % UInt64(entries.count))].id)
            case 2:
                _ = try store.journal.main.insert(MainStore.WriteHooks(pruningThrough: 0)) { insert in
                    for _ in 0..<(3 + Int(generator.next() % 6)) { try insert(PreparedEntry(text: text())) }
                }
                try SearchIndexer(
                    main: store.journal.main, search: store.journal.search, batchSize: 1 + Int(generator.next() % 3),
                    mergePolicy: MergePolicy(runsPerMerge: generator.next() % 2 == 0 ? 1 : 20)
                ).catchUp()
            default:
                _ = try store.journal.add(NewEntry(text: text()))
            }
            let now = try store.allEntries()
            let tokens = Dictionary(uniqueKeysWithValues: now.map { ($0.id, Tokens.of(text: $0.text)) })
            for key in keys.sorted() {
                // The key as a query reads it: folded (`ß` is `ss`).
                let folded = Fold.canonical(key)
                let expected = tokens.values.filter {
                    $0.contains { $0.unicodeScalars.starts(with: folded.unicodeScalars) }
                }
                let found = try store.journal.search(
                    key, strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0))
                #expect(found.total == expected.count, "round \(round): \(key)")
            }
            if round % 6 == 5 { try store.expectConsistent() }
        }
    }
}
