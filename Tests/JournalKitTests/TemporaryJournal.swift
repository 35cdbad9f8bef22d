import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

/// A journal in a new temporary folder, removed when the test is done with it.
final class TemporaryJournal {
    let directory: StoreDirectory
    /// The open journal; replaced (its connections closed first) by `reopen()`.
    private(set) var journal: Journal!

    /// The passphrase of an encrypted journal, nil for one in plain text.
    let passphrase: Passphrase?

    /// A journal in plain text, or encrypted under `passphrase` (at the cheapest Argon2id cost,
    /// which tests can afford to pay at every opening).
    init(passphrase: String? = nil) throws {
        directory = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-test-\(UUID().uuidString)"))
        self.passphrase = try passphrase.map { text throws(JournalError) in try Passphrase(text) }
        if let passphrase = self.passphrase {
            journal = try Journal.create(in: directory, passphrase: passphrase, cost: .cheapestForTests)
        } else {
            journal = try Journal(directory: directory)
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory.url) }

    /// Closes the journal's connections, as the end of a process would.
    func close() {
        try? journal?.close()
        journal = nil
    }

    /// Opens the folder again, as the next command would, telling `progress` how its opening goes.
    @discardableResult
    func reopen(progress: ProgressHandler? = nil) throws -> Journal {
        close()
        journal = try Journal(directory: directory, passphrase: passphrase, progress: progress)
        return journal
    }

    /// Imports one entry per text, in one transaction (far faster than adding them one by one).
    func importTexts(_ texts: [String], oneADay: Bool = false) throws {
        let lines = try texts.enumerated().map { index, text in
            var fields = ["text": text]
            if oneADay {
                fields["date"] = ISO8601DateFormatter().string(
                    from: Date(timeIntervalSince1970: Double(index) * 86_400))
            }
            return String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        }
        let file = directory.url.appendingPathComponent("texts-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try journal.importJSONLines(from: JSONLinesReader(path: file.path))
    }

    /// Indexes the pending changes in batches of `batchSize` and stops once `batches` are
    /// written, as a cancelled or killed command leaves the search store.
    func indexStopping(
        afterBatches batches: Int, batchSize: Int, batchBytes: Int? = nil, runsPerMerge: Int = 8,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let cancellation = Cancellation()
        var indexer = SearchIndexer(
            main: journal.main, search: journal.search, batchSize: batchSize,
            mergePolicy: MergePolicy(runsPerMerge: runsPerMerge))
        if let batchBytes { indexer.batchBytes = batchBytes }
        indexer.cancellation = cancellation
        let written = ProgressRecorder()
        #expect(throws: JournalError.self, sourceLocation: sourceLocation) {
            try indexer.catchUp { progress in
                written.record(progress)
                if written.done.count == batches { cancellation.cancel() }
            }
        }
    }

    /// Every entry, oldest number first, read straight from the main store.
    func allEntries() throws -> [Entry] {
        try journal.list(PageRequest(limit: 0)).entries.sorted { $0.id.number < $1.id.number }
    }

    /// The search store holds exactly `tokens(e)` for every entry and nothing else, and the main
    /// store holds `canonical(text)` beside every text.
    func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let entries = try allEntries()
        let canonical = try journal.main.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT n, CAST(canonical AS BLOB) FROM entry").reduce(into: [Int64: String]()) {
                $0[$1[0]] = ($1[1] as ExactText).string
            }
        }
        // Tokens of each document as the postings have them, and as its own token list has them.
        let (indexed, listed, orphanTokens, tokenTexts) = try journal.search.pool.read { db in
            let texts = try Row.fetchAll(db, sql: "SELECT id, text FROM token").reduce(into: [Int64: String]()) {
                $0[$1[0]] = $1[1]
            }
            var indexed: [Int64: (uri: String, tokens: Set<String>)] = [:]
            var listed: [Int64: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, uri, tokens FROM document JOIN document_uri USING (id)") {
                indexed[row[0]] = (row[1], [])
                listed[row[0]] = Set(DeltaList.decode(row[2]).map { texts[$0] ?? "?" })
            }
            var used = Set<Int64>()
            // The segments and the recent ones (PostingSegments+Recent) alike.
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT id >> 32, documents, id FROM posting UNION ALL SELECT id >> 32, documents, id FROM posting_recent"
            ) {
                let token: Int64 = row[0]
                used.insert(token)
                for number in DeltaList.decode(row[1], first: PostingSegments.first(ofSegment: row[2])) {
                    indexed[number, default: ("missing", [])].tokens.insert(texts[token] ?? "?")
                }
            }
            return (indexed, listed, Set(texts.keys).subtracting(used).count, Array(texts.values))
        }
        // Each document's prefix keys as the key postings have them: those with a row, which
        // every key that two tokens or more start with has.
        let (keyed, orphanKeys, keysWithRows) = try journal.search.pool.read { db in
            let texts = try Row.fetchAll(db, sql: "SELECT id, text FROM prefix_key").reduce(into: [Int64: String]()) {
                $0[$1[0]] = $1[1]
            }
            var keyed: [Int64: Set<String>] = [:]
            var used = Set<Int64>()
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT id >> 32, documents, id FROM prefix_posting UNION ALL SELECT id >> 32, documents, id FROM prefix_posting_recent"
            ) {
                let key: Int64 = row[0]
                used.insert(key)
                for number in DeltaList.decode(row[1], first: PostingSegments.first(ofSegment: row[2])) {
                    keyed[number, default: []].insert(texts[key] ?? "?")
                }
            }
            return (keyed, Set(texts.keys).subtracting(used).count, Set(texts.values))
        }
        let keysOfSeveralTokens = Set(
            EntryDocumentCheck.keysOfSeveralTokens(tokenTexts).map(\.string))
        #expect(keysOfSeveralTokens.isSubset(of: keysWithRows), sourceLocation: sourceLocation)
        #expect(orphanKeys == 0, sourceLocation: sourceLocation)
        #expect(Set(keyed.keys).isSubset(of: Set(entries.map(\.id.number))), sourceLocation: sourceLocation)
        let verification = try journal.verify()
        #expect(verification.isConsistent, "journal.verify(): \(verification.problems)", sourceLocation: sourceLocation)
        #expect(orphanTokens == 0, sourceLocation: sourceLocation)
        #expect(Set(indexed.keys) == Set(entries.map(\.id.number)), sourceLocation: sourceLocation)
        for entry in entries {
            #expect(canonical[entry.id.number] == Fold.canonical(entry.text), sourceLocation: sourceLocation)
            #expect(indexed[entry.id.number]?.uri == entry.id.ownURI, sourceLocation: sourceLocation)
            #expect(
                indexed[entry.id.number]?.tokens == Set(Tokens.of(text: entry.text)), "\(entry.id.shortName)",
                sourceLocation: sourceLocation)
            #expect(
                listed[entry.id.number] == Set(Tokens.of(text: entry.text)), "\(entry.id.shortName)",
                sourceLocation: sourceLocation)
            #expect(
                keyed[entry.id.number, default: []]
                    == Set(Tokens.prefixKeys(of: Tokens.of(text: entry.text))).intersection(keysWithRows),
                "\(entry.id.shortName)",
                sourceLocation: sourceLocation)
        }
    }
}

extension KeyDerivationCost {
    /// Argon2id's least cost (one pass over 8 KiB): for tests, never for a journal.
    static let cheapestForTests = try! KeyDerivationCost(passes: 1, memoryBytes: 8192)
}

/// Expects `body` to throw a `JournalError` of `kind`.
func expectError<T>(
    _ kind: JournalError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) {
    let error = #expect(throws: JournalError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.kind == kind, "\(error?.message ?? "")", sourceLocation: sourceLocation)
}

extension PreparedEntry {
    /// An entry prepared as the journal prepares one, dated now unless told, for tests that
    /// write to the main store directly.
    init(text: String, date: JournalDate = .now) {
        self.init(
            date: date, text: text, canonical: Fold.canonical(text), textTags: Tags.inText(text), givenTags: [],
            starred: false, origin: nil
        )
    }
}
