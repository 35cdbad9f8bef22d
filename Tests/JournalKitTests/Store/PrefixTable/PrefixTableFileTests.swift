import Foundation
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct PrefixTableFileTests {
    static let tokens = [
        "the", "then", "theatre", "théâtre", "thé", "th", "t", "東京", "東京都", "東京タワー", "straße", "strasse", "😀smile",
        "😀😀😀",
        "ёлка", "ёлочка", String(repeating: "long", count: 500), "a\u{10FFFF}b", "ab", "abc", "abcd",
    ]

    /// How an encrypted journal seals the file (under a random key), or nil for plain text.
    private static func sealing(_ sealed: Bool) throws -> ChunkSealing? {
        sealed ? ChunkSealing(key: try GuardedBytes.random(count: 32)) : nil
    }

    /// The tokens saved, in text order as the token index gives them, and the same in memory.
    private func savedTable(
        tag: UUID = UUID(), sealing: ChunkSealing? = nil
    ) throws -> (table: PrefixTable, url: URL, tag: UUID) {
        var table = PrefixTable()
        let tokens = Self.tokens.enumerated().map { (id: Int64($0.offset * 3 + 1), utf8: Data($0.element.utf8)) }
        for token in tokens { table.insert(id: token.id, utf8: token.utf8) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefix-\(UUID().uuidString)")
        let sorted = tokens.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        try PrefixTableFile.save(tag: tag, to: url, sealing: sealing) { body in
            for token in sorted { try token.utf8.withUnsafeBytes { try body(token.id, $0) } }
        }
        return (table, url, tag)
    }

    @Test func refusesTokensOutOfTextOrder() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefix-\(UUID().uuidString)")
        let tokens = ["then", "abc", "there"].enumerated().map {
            (id: Int64($0.offset + 1), utf8: Data($0.element.utf8))
        }
        #expect(throws: JournalError.self) {
            try PrefixTableFile.save(tag: UUID(), to: url) { body in
                for token in tokens { try token.utf8.withUnsafeBytes { try body(token.id, $0) } }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(arguments: [false, true]) func findsWhatTheInMemoryTableFinds(sealed: Bool) throws {
        let sealing = try Self.sealing(sealed)
        let (table, url, tag) = try savedTable(sealing: sealing)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try #require(PrefixTableFile(mapping: url, expectedTag: tag, sealing: sealing))
        #expect(file.tokenCount == Self.tokens.count)
        #expect(file.maxTokenID == table.maxTokenID)
        let prefixes = Set(
            Self.tokens.flatMap { token in
                (1...min(token.unicodeScalars.count, 6)).map { String(token.unicodeScalars.prefix($0)) }
            })
        for prefix in prefixes.union(["x", "thx", "東京x", "zzzz"]) {
            #expect(
                file.tokenIDs(withPrefix: prefix)?.sorted() == table.tokenIDs(withPrefix: prefix).sorted(), "\(prefix)")
        }
        var all: [Int64: String] = [:]
        file.forEachToken { id, utf8 in all[id] = String(decoding: utf8, as: UTF8.self) }
        #expect(all.count == Self.tokens.count)
        #expect(all[4] == "then")
    }

    /// Many tokens of a few letters share their keys and most of their bytes, which the file
    /// stores once (front-coded, without the key): every prefix still finds what the in-memory
    /// table finds, and loading the file gives every token back whole.
    @Test(arguments: [false, true]) func findsWhatTheInMemoryTableFindsAmongTokensSharingPrefixes(sealed: Bool) throws {
        let sealing = try Self.sealing(sealed)
        var generator = SplitMix64(seed: 60)
        let letters = Array("aáeёж東😀").map(String.init)
        var texts = Set<String>()
        while texts.count < 3_000 {
            let length = Int(generator.next() % 9) + 1
            texts.insert((0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }.joined())
        }
        var table = PrefixTable()
        let ids = (1...Int64(texts.count)).map { $0 * 1_000 }.shuffled(using: &generator)
        let tokens = zip(ids, texts.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }).map {
            (id: $0, utf8: Data($1.utf8))
        }
        for token in tokens { table.insert(id: token.id, utf8: token.utf8) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let tag = UUID()
        try PrefixTableFile.save(tag: tag, to: url, sealing: sealing) { body in
            for token in tokens { try token.utf8.withUnsafeBytes { try body(token.id, $0) } }
        }
        let file = try #require(PrefixTableFile(mapping: url, expectedTag: tag, sealing: sealing))
        let prefixes = Set(
            texts.flatMap { text in (1...text.unicodeScalars.count).map { String(text.unicodeScalars.prefix($0)) } })
        for prefix in prefixes {
            #expect(
                file.tokenIDs(withPrefix: prefix)?.sorted() == table.tokenIDs(withPrefix: prefix).sorted(), "\(prefix)")
        }
        var loaded: [Int64: Data] = [:]
        file.forEachToken { id, utf8 in loaded[id] = Data(utf8) }
        #expect(loaded == Dictionary(uniqueKeysWithValues: tokens.map { ($0.id, $0.utf8) }))
        #expect(tokens.allSatisfy { file.holds(id: $0.id, utf8: $0.utf8) })
    }

    @Test(arguments: [false, true]) func refusesAnotherTagAMissingFileOrOneCutShort(sealed: Bool) throws {
        let sealing = try Self.sealing(sealed)
        let (_, url, tag) = try savedTable(sealing: sealing)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(PrefixTableFile(mapping: url, expectedTag: UUID(), sealing: sealing) == nil)
        // Plain, a whole file under another tag is one saved since; sealed, its header does not
        // open under the tag expected.
        #expect(
            PrefixTableFile.refusal(mapping: url, expectedTag: UUID(), sealing: sealing)
                == (sealed ? .unusable : .otherTag))
        #expect(
            PrefixTableFile(mapping: url.appendingPathExtension("missing"), expectedTag: tag, sealing: sealing) == nil)
        #expect(
            PrefixTableFile.refusal(mapping: url.appendingPathExtension("missing"), expectedTag: tag, sealing: sealing)
                == .missing)
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count - 1).write(to: url)
        #expect(PrefixTableFile(mapping: url, expectedTag: tag, sealing: sealing) == nil)
        #expect(PrefixTableFile.refusal(mapping: url, expectedTag: tag, sealing: sealing) == .unusable)
        try Data().write(to: url)
        #expect(PrefixTableFile(mapping: url, expectedTag: tag, sealing: sealing) == nil)
        #expect(PrefixTableFile.refusal(mapping: url, expectedTag: tag, sealing: sealing) == .unusable)
    }

    /// Sealed, the file holds none of its tokens, opens only under its key, and a damaged chunk
    /// makes it answer nothing rather than something wrong.
    @Test func aSealedFileHoldsNoTokenAndRefusesDamage() throws {
        let sealing = try #require(try Self.sealing(true))
        let (_, url, tag) = try savedTable(sealing: sealing)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = try Data(contentsOf: url)
        for token in ["theatre", "東京タワー", "ёлочка", "longlong"] {
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(token)")
        }
        #expect(PrefixTableFile(mapping: url, expectedTag: tag, sealing: try Self.sealing(true)) == nil)
        var damaged = bytes
        damaged[damaged.count - 100] ^= 0x01
        try damaged.write(to: url)
        // Refused when it opens (the damaged chunk holds the header), or at the first lookup
        // that reads the damaged chunk.
        if let file = PrefixTableFile(mapping: url, expectedTag: tag, sealing: sealing) {
            var answers: [[Int64]?] = []
            for token in Self.tokens { answers.append(file.tokenIDs(withPrefix: token)) }
            #expect(answers.contains { $0 == nil })
            #expect(file.isDamaged)
        }
    }

    /// Damage that keeps the header valid answers wrongly at worst: every read stays inside the file.
    @Test func survivesDamagedSlotsAndBuckets() throws {
        let (_, url, tag) = try savedTable()
        defer { try? FileManager.default.removeItem(at: url) }
        let original = try Data(contentsOf: url)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var damaged = original
            for _ in 0..<8 {
                let position = Int.random(in: 64..<damaged.count, using: &generator)
                damaged[position] = UInt8.random(in: 0...255, using: &generator)
            }
            try damaged.write(to: url)
            let file = try #require(PrefixTableFile(mapping: url, expectedTag: tag))
            for token in Self.tokens { _ = file.tokenIDs(withPrefix: token) }
            file.forEachToken { _, _ in }
        }
    }
}

@Suite struct PrefixSnapshotTests {
    /// A journal with a saved prefix table and tokens added after it.
    private func journal() throws -> TemporaryJournal {
        let store = try TemporaryJournal()
        let input = store.directory.url.appendingPathComponent("input.jsonl")
        #expect(FileManager.default.createFile(atPath: input.path, contents: nil))
        let handle = try FileHandle(forWritingTo: input)
        try SyntheticJournalFile.write(entries: 400, seed: 5, to: handle)
        try handle.close()
        _ = try store.journal.importFile(atPath: input.path)
        #expect(
            FileManager.default.fileExists(atPath: PrefixSnapshot.fileURL(besides: store.directory.searchStoreURL).path)
        )
        for index in 0..<30 { try store.journal.add(NewEntry(text: "zygomorphic\(index) théâtrophone\(index)")) }
        return store
    }

    @Test func theMappedTableAnswersAsTheInMemoryOne() throws {
        let store = try journal()
        let mapped = try Journal(directory: store.directory, create: false, use: .oneAnswer)
        let words = try store.journal.search.tokenFrequencies().map(\.text).filter { $0.unicodeScalars.count > 4 }
        #expect(words.count > 1_000)
        for word in words.prefix(300) + ["zygo", "zygomorphic2", "théâtro", "thea", "nothingstartslikethis"] {
            let prefix = String(word.unicodeScalars.prefix(4 + word.count % 3))
            let expected = try store.journal.search(
                prefix, strategy: SearchStrategies[.token], page: PageRequest(limit: 0))
            let found = try mapped.search(prefix, strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0))
            #expect(found.total == expected.total, "\(prefix)")
            #expect(found.entries.map(\.id) == expected.entries.map(\.id), "\(prefix)")
        }
        #expect(!mapped.search.pool.hasWriter)
    }

    /// The tokens added since the file was saved are listed by id (what a reader adds to the
    /// file's); deleting or editing the entries that hold them takes them off the list; saving
    /// the file again empties it, and a journal that loaded its table before that save still
    /// finds the tokens added between.
    @Test func theTokensAddedSinceTheFileAreListedUntilItIsSavedAgain() throws {
        let store = try journal()
        let kept = try Journal(directory: store.directory, create: false, use: .kept)
        func listed() throws -> [String] {
            try store.journal.search.pool.read { db in
                try String.fetchAll(db, sql: "SELECT text FROM token_added ORDER BY id")
            }
        }
        func found(_ word: String, in journal: Journal) throws -> Int {
            try journal.search(word, strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0)).total
        }
        let added = try listed()
        #expect(added.contains("zygomorphic7") && added.contains("theatrophone29") && added.count >= 60)
        #expect(try found("zygomorphic", in: kept) == 30)

        let entries = try store.journal.search("zygomorphic7", page: PageRequest(limit: 10)).entries
        try #require(entries.count == 1)
        try store.journal.delete(entries[0].id)
        let other = try store.journal.search("zygomorphic8", page: PageRequest(limit: 10)).entries
        try #require(other.count == 1)
        try store.journal.edit(other[0].id, text: "zygomorphic8 rewritten")
        #expect(try !listed().contains("zygomorphic7") && !listed().contains("theatrophone8"))
        #expect(try listed().contains("rewritten") && listed().contains("zygomorphic8"))
        #expect(try found("zygomorphic", in: kept) == 29)
        #expect(try store.journal.verify().isConsistent)

        // A token of the file's (one imported entry's only) goes with its entry: its text read
        // from the file.
        let since = Set(try listed())
        let rare = try #require(
            try store.journal.search.tokenFrequencies().last {
                $0.documents == 1 && $0.text.unicodeScalars.count > 5 && !since.contains($0.text)
            })
        let holder = try store.journal.search(
            rare.text, strategy: SearchStrategies[.token], page: PageRequest(limit: 1))
        try store.journal.delete(try #require(holder.entries.first).id)
        #expect(try !store.journal.search.tokenFrequencies().contains { $0.text == rare.text })
        #expect(try store.journal.verify().isConsistent)
        try store.expectConsistent()

        // Enough new tokens that the catch-up saves the file again (past 1,000 since the last
        // save, the second entry): the list empties.
        let recordBefore = try store.journal.search.pool.read(PrefixSnapshot.record(in:))
        for batch in 0..<2 {
            let words = (0..<600).map { "quagga\(batch)x\($0)" }.joined(separator: " ")
            try store.journal.add(NewEntry(text: words))
        }
        let recordAfter = try store.journal.search.pool.read(PrefixSnapshot.record(in:))
        #expect(recordAfter?.tag != recordBefore?.tag)
        #expect(try listed().isEmpty)
        #expect(try found("quagga1x4", in: kept) == 1)
        #expect(try found("quagga", in: kept) == 2)
        #expect(try found("zygomorphic", in: kept) == 29)
        let report = try store.journal.verify()
        #expect(report.isConsistent, "\(report.problems)")
    }

    @Test func aDamagedFileIsReportedAndAMissingOneSavedAgain() throws {
        let store = try journal()
        let url = PrefixSnapshot.fileURL(besides: store.directory.searchStoreURL)
        var bytes = try Data(contentsOf: url)
        // The last byte of the buckets (after the 64-byte header, before the slots): a token's text.
        let bucketBytes = bytes[48..<56].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        bytes[64 + bucketBytes - 1] ^= 0x01
        try bytes.write(to: url)
        let report = try store.journal.verify()
        #expect(report.problems.contains { $0.contains(url.path) }, "\(report.problems)")
        try FileManager.default.removeItem(at: url)
        try store.reopen()
        #expect(FileManager.default.fileExists(atPath: url.path))
        let repaired = try store.journal.verify()
        #expect(repaired.isConsistent, "\(repaired.problems)")
        // Opening the journal saves the file again and says so: missing, or damaged where its
        // header shows it (cut short here); once saved, the next opening has nothing to say.
        #expect(store.journal.notices.contains { $0.contains(url.path) && $0.hasSuffix("it was missing") })
        try Data(contentsOf: url).prefix(30).write(to: url)
        try store.reopen()
        #expect(
            store.journal.notices.contains { $0.contains(url.path) && $0.hasSuffix("it was damaged") },
            "\(store.journal.notices)")
        let search = store.journal.search
        #expect(try search.pool.read { db in try PrefixSnapshot.refusal(in: db, searchStore: search) } == nil)
        try store.reopen()
        #expect(store.journal.notices.isEmpty, "\(store.journal.notices)")
    }

    /// A file of an earlier layout (another version's magic) is not read, and is no damage to
    /// the check (as where the store can't be written): searches answer from the token table
    /// until the next catch-up saves the file again in the current layout. A magic of no
    /// version is damage.
    @Test func aFileOfAnEarlierLayoutIsSavedAgain() throws {
        let store = try journal()
        let url = PrefixSnapshot.fileURL(besides: store.directory.searchStoreURL)
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange(0..<8, with: Array("JRNLXXXX".utf8))
        try bytes.write(to: url)
        // The check alone, without the catch-up `verify` does first.
        let damaged = try JournalVerifier(stores: store.journal.stores).run(progress: nil)
        #expect(damaged.problems.contains { $0.contains(url.path) }, "\(damaged.problems)")
        bytes.replaceSubrange(0..<8, with: Array("JRNLPFX3".utf8))
        try bytes.write(to: url)
        let earlier = try JournalVerifier(stores: store.journal.stores).run(progress: nil)
        #expect(earlier.isConsistent, "\(earlier.problems)")
        let words = try store.journal.search.tokenFrequencies().map(\.text).filter { $0.unicodeScalars.count > 4 }
        let expected = try words.prefix(20).map { try store.journal.search(SearchQuery($0)).total }
        try store.reopen()
        #expect(store.journal.notices.isEmpty, "\(store.journal.notices)")
        #expect(try Data(contentsOf: url).prefix(8) == Data(PrefixTableFile.magic))
        #expect(try words.prefix(20).map { try store.journal.search(SearchQuery($0)).total } == expected)
        let report = try store.journal.verify()
        #expect(report.isConsistent, "\(report.problems)")
    }
}
