import Foundation
import GRDB

/// The search store, `search.sqlite`: a separate file holding each entry's tokens, so that
/// searching never waits on the main store's locks. It knows entries only by their URIs.
package final class SearchStore: StoreFile {
    static let applicationID: Int32 = 0x4A52_4E53  // "JRNS"

    package let url: URL
    package let pool: StorePool
    /// How an encrypted journal's prefix table file is sealed; nil in plain text.
    let prefixSealing: ChunkSealing?
    /// The encrypting file layer it is opened through, nil in plain text: a scratch copy of the
    /// store is made through the same one.
    let encryption: StoreEncryption?

    /// Opens the search store of the main store `mainStoreID`. A damaged or foreign file
    /// (another journal's, or not a search store at all) is replaced by an empty store, which
    /// then catches up from the main store; `rebuildReason` says why, when that happened.
    /// With `readOnly`, nothing is written: such a file is an error instead. `identity` binds
    /// an encrypted store's pages to what it is (a scratch store is not the journal's).
    /// `replacing` runs just before a file is replaced, and may refuse it by throwing.
    init(
        url: URL, mainStoreID: UUID, encryption: StoreEncryption? = nil,
        identity: StoreEncryption.Identity = .searchStore,
        readOnly: Bool = false, readers: StoreDatabase.Readers = .pool,
        replacing: () throws(JournalError) -> Void = {}
    ) throws(JournalError) {
        self.url = url
        self.encryption = encryption
        prefixSealing = try encryption?.sealing(.prefixTableFile)
        let opening = (encryption: encryption, identity: identity, readers: readers)
        switch Self.openExisting(url, mainStoreID: mainStoreID, opening, readOnly: readOnly) {
        case .success(let pool):
            self.pool = pool
            rebuildReason = nil
        case .failure(.replace(let why)) where readOnly:
            throw .store("\(url.path) must be rebuilt (\(why)), and the journal cannot be written", file: url.path)
        case .failure(.replace(let why)):
            try replacing()
            // Another process may have replaced it meanwhile.
            if case .success(let pool) = Self.openExisting(url, mainStoreID: mainStoreID, opening) {
                self.pool = pool
                rebuildReason = nil
                return
            }
            try Self.removeFiles(at: url)
            switch Self.openExisting(url, mainStoreID: mainStoreID, opening) {
            case .success(let pool): self.pool = pool
            case .failure(.replace(let reason)):
                throw .store("cannot recreate \(url.path): \(reason)")
            case .failure(.fatal(let error)):
                throw error
            }
            rebuildReason = why
        case .failure(.fatal(let error)):
            throw error
        }
    }

    /// Why the file was replaced on opening, or nil.
    let rebuildReason: String?

    private enum OpenProblem: Error {
        /// The file can't serve as this journal's search store: replace it.
        case replace(String)
        /// Something outside the file is wrong (the folder, the disk): give up.
        case fatal(JournalError)
    }

    private static func openExisting(
        _ url: URL, mainStoreID: UUID,
        _ opening: (encryption: StoreEncryption?, identity: StoreEncryption.Identity, readers: StoreDatabase.Readers),
        readOnly: Bool = false
    ) -> Result<StorePool, OpenProblem> {
        do {
            if readOnly {
                guard FileManager.default.fileExists(atPath: url.path) else {
                    return .failure(.replace("it is missing"))
                }
            } else {
                try DurableFiles.createPrivateFile(at: url)
            }
        } catch {
            return .failure(.fatal(error))
        }
        do {
            let (pool, facts) = try StoreDatabase.open(
                url, applicationID: applicationID, durability: .mayLag, encryption: opening.encryption,
                identity: opening.identity,
                readOnly: readOnly, readers: opening.readers, givesPagesBack: true)
            let migrated: Bool
            // Read-only, a store of an earlier format is an error to report, not a file to replace.
            do {
                migrated = try pool.migrate(
                    with: migrator, applied: facts.appliedMigrations,
                    optional: [
                        "v5-prefix-posting-counts", "v8-document-lengths", "v9-posting-runs",
                        "v14-prefix-key-text-once", "v15-keys-of-one-token-unlisted",
                    ])
            } catch let error as JournalError where readOnly {
                return .failure(.fatal(error))
            }
            // A store made before stores gave free pages back does so once a migration empties it,
            // unless another process reads it then: its file then keeps free pages for later writes.
            if migrated, !readOnly {
                do {
                    try pool.writeWithoutTransaction { db in
                        if try Int.fetchOne(db, sql: "SELECT count(*) FROM document") == 0 {
                            try FreePages.makeGiveBack(in: db)
                        }
                    }
                } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {}
            }
            let ownerQuery = "SELECT value FROM store_info WHERE key = 'main_store'"
            let owner =
                try (migrated ? pool.read(StoreFacts.read) : facts).info["main_store"]
                ?? pool.write { db in
                    if let owner = try String.fetchOne(db, sql: ownerQuery) { return owner }
                    try db.execute(
                        sql: "INSERT INTO store_info (key, value) VALUES ('main_store', ?)",
                        arguments: [mainStoreID.uuidString])
                    return mainStoreID.uuidString
                }
            guard owner == mainStoreID.uuidString else { return .failure(.replace("it belonged to another journal")) }
            return .success(pool)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            return .failure(.replace("it was damaged (\(error.message ?? "corrupt"))"))
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_IOERR_DATA {
            // An encrypted store's page or log that fails authentication: derived, so rebuilt.
            let failure = StoreEncryption.lastFailure(of: url.path) ?? error.message ?? "altered"
            return .failure(.replace("it was damaged (\(failure))"))
        } catch let error as JournalError where error.kind == .store {
            return .failure(.replace("it was not a search store"))
        } catch {
            return .failure(.fatal(StoreDatabase.describe(error, file: url)))
        }
    }

    private static func removeFiles(at url: URL) throws(JournalError) {
        for suffix in ["", "-wal", "-shm", "-prefix"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) {
                do { try FileManager.default.removeItem(atPath: path) } catch {
                    throw .store("cannot replace \(path): \(error.localizedDescription)")
                }
            }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value ANY NOT NULL) WITHOUT ROWID;
                    -- One row per entry. id: the entry number n of its URI, so that ties on date order
                    -- as in the main store; tokens: its token ids (DeltaList), to remove its postings.
                    CREATE TABLE document (
                        id INTEGER PRIMARY KEY,
                        uri TEXT NOT NULL,
                        date INTEGER NOT NULL,
                        tokens BLOB NOT NULL
                    );
                    CREATE INDEX document_by_date ON document(date);
                    -- Each distinct canonical token once; the unique index serves prefix range scans.
                    -- AUTOINCREMENT: a removed token's id is never given to another (the prefix
                    -- table and its snapshot refer to tokens by id).
                    CREATE TABLE token (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL UNIQUE);
                    -- The many-to-many link between tokens and documents.
                    CREATE TABLE posting (
                        token INTEGER NOT NULL,
                        document INTEGER NOT NULL,
                        PRIMARY KEY (token, document)
                    ) WITHOUT ROWID;
                    -- The prefix table's tokens up to max_token_id, serialized (replaced in v4).
                    CREATE TABLE prefix_snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        max_token_id INTEGER NOT NULL,
                        token_count INTEGER NOT NULL,
                        data BLOB NOT NULL
                    );
                    """)
        }
        // Postings as segments of entry numbers (PostingSegments) instead of a row per token
        // and entry. The store holds derived data only: it is emptied and rebuilt.
        migrator.registerMigration("v2-posting-segments") { db in
            try db.execute(
                sql: """
                    DROP TABLE posting;
                    -- id: token << 32 | the segment's first entry number; documents: a DeltaList.
                    CREATE TABLE posting (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL);
                    -- Every prefix of one to three code points of some token, and the documents with
                    -- a token starting with it (the prefix strategy's answer for words that short).
                    CREATE TABLE prefix_key (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL UNIQUE);
                    CREATE TABLE prefix_posting (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, documents BLOB NOT NULL);
                    DELETE FROM document; DELETE FROM token; DELETE FROM prefix_snapshot;
                    DELETE FROM store_info WHERE key IN ('applied_change', 'resume_after_entry', 'rebuild_from');
                    """)
        }
        // Documents by day (DateBuckets), so that a date filter costs a few runs of numbers.
        migrator.registerMigration("v3-date-buckets") { db in
            try db.execute(sql: DateBuckets.schema)
            try DateBuckets.fill(in: db)
        }
        // The prefix table saved in a file of its own, laid out to be mapped (PrefixTableFile),
        // instead of a blob that every process had to decode whole; the row names the file.
        migrator.registerMigration("v4-prefix-table-file") { db in
            try db.execute(
                sql: """
                    DROP TABLE prefix_snapshot;
                    CREATE TABLE prefix_snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        max_token_id INTEGER NOT NULL,
                        token_count INTEGER NOT NULL,
                        file_tag TEXT NOT NULL
                    );
                    """)
        }
        // Each prefix key's count of entries without reading its numbers (PostingSegments.count),
        // so that a short word's first page and total need not read a list of most entries. An
        // index only: a store that can't be written answers the same without it, more slowly.
        migrator.registerMigration("v5-prefix-posting-counts") { db in
            try db.execute(sql: "CREATE INDEX prefix_posting_count ON prefix_posting(id, count)")
        }
        // Each document's words in order, so that a phrase is checked without the entry's text
        // (replaced by positions in v7). The store holds derived data only: it is emptied and
        // rebuilt.
        migrator.registerMigration("v6-word-order") { db in
            try db.execute(
                sql: """
                    ALTER TABLE document ADD COLUMN words BLOB NOT NULL DEFAULT x'';
                    DELETE FROM posting; DELETE FROM token; DELETE FROM prefix_posting; DELETE FROM prefix_key;
                    DELETE FROM document; DELETE FROM date_bucket; DELETE FROM prefix_snapshot;
                    DELETE FROM store_info WHERE key IN ('applied_change', 'applied_change_tag', 'resume_after_entry', 'rebuild_from');
                    """)
            try bumpTokenGeneration(in: db)
        }
        // Each token's positions in its entries beside them (PositionLists), so that a phrase is
        // a merge of positions, instead of each document's words in order; a document keeps its
        // number of words. The store holds derived data only: it is emptied and rebuilt.
        migrator.registerMigration("v7-posting-positions") { db in
            try db.execute(
                sql: """
                    ALTER TABLE posting ADD COLUMN positions BLOB NOT NULL DEFAULT x'';
                    ALTER TABLE document DROP COLUMN words;
                    ALTER TABLE document ADD COLUMN length INTEGER NOT NULL DEFAULT 0;
                    DELETE FROM posting; DELETE FROM token; DELETE FROM prefix_posting; DELETE FROM prefix_key;
                    DELETE FROM document; DELETE FROM date_bucket; DELETE FROM prefix_snapshot;
                    DELETE FROM store_info
                    WHERE key IN (
                        'applied_change', 'applied_change_tag', 'resume_after_entry', 'rebuild_from', 'document_count',
                        'word_count'
                    );
                    """)
            try bumpTokenGeneration(in: db)
        }
        // Documents' lengths in blocks (DocumentLengths), so that relevance reads those of many
        // matches in a few rows. Optional: a store that can't be written reads them from its
        // documents.
        migrator.registerMigration("v8-document-lengths") { db in
            try db.execute(sql: DocumentLengths.schema)
            try DocumentLengths.fill(in: db)
        }
        // A large insert's postings staged between merges (PostingRuns). Optional: readers
        // never read them, and a store that can't be written has none.
        migrator.registerMigration("v9-posting-runs") { db in
            try db.execute(sql: PostingRuns.schema)
        }
        // Postings of new entries appended beside the segments until merged (PostingSegments+Recent).
        // Readers of a store that can't be written, and has none, read the segments alone.
        migrator.registerMigration("v10-recent-segments") { db in
            try db.execute(sql: PostingSegments.recentSchema)
        }
        // Documents without their URIs: an entry's URI is the journal's fixed part (scheme, main
        // store UUID, entity) and the entry number, which is the row's id, so a row keeps the
        // number alone and `document_uri` puts the URI together where one is asked for. The
        // store holds derived data only: it is emptied and rebuilt.
        migrator.registerMigration("v11-uri-once") { db in
            try emptyForFormatChange(in: db)
            try db.execute(sql: "ALTER TABLE document DROP COLUMN uri")
            try db.execute(sql: uriView)
        }
        // Each token's text kept once: the token table keyed by its text (the order its range
        // scans and lookups read), without a second copy of every text in a unique index, and
        // the tokens added since the prefix table's file was saved listed by id beside it, for
        // readers to add to the file's. That list's AUTOINCREMENT keeps the largest id ever given
        // (the token table's, moved over), so that no id is given twice. The store holds derived
        // data only: it is emptied and rebuilt; the old table is dropped before the new ones are
        // made.
        migrator.registerMigration("v12-token-text-once") { db in
            try emptyForFormatChange(in: db)
            try db.execute(
                sql: """
                    INSERT INTO sqlite_sequence (name, seq) SELECT 'token_added', seq FROM sqlite_sequence WHERE name = 'token';
                    DROP TABLE token;
                    CREATE TABLE token_added (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL);
                    CREATE TABLE token (text TEXT NOT NULL PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
                    """)
        }
        // Dates kept once, in the documents' rows: each day's documents kept in the order of
        // their dates (DateBuckets), which is then the order by date, so the index on the date
        // goes. The days are written again from the documents.
        migrator.registerMigration("v13-days-in-date-order") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS document_by_date")
            try DateBuckets.fill(in: db)
        }
        // Each prefix key's text kept once, as each token's is: the table keyed by its text,
        // without a second copy of every text in a unique index. The largest id ever given stays
        // in the `sqlite_sequence` row of the old AUTOINCREMENT table's name, which the writer
        // moves on (``PostingOwner/sequenceName``). Ids are kept: changed in place. Optional:
        // readers look keys up by text in either table.
        migrator.registerMigration("v14-prefix-key-text-once") { db in
            let largest =
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT max(coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'prefix_key'), 0),
                                   coalesce((SELECT max(id) FROM prefix_key), 0))
                        """) ?? 0
            try db.execute(
                sql: """
                    CREATE TABLE prefix_key_by_text (text TEXT NOT NULL PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
                    INSERT INTO prefix_key_by_text (text, id) SELECT text, id FROM prefix_key ORDER BY text;
                    DROP TABLE prefix_key;
                    ALTER TABLE prefix_key_by_text RENAME TO prefix_key;
                    DELETE FROM sqlite_sequence WHERE name = 'prefix_key';
                    """)
            try SearchStoreWriter.keepLargestID(largest, of: .prefixKey, in: db)
        }
        // A prefix key that no more than one token starts with, one with few entries, has no row
        // or postings of its own: that token's are its (``PostingOwner/prefixKey``). Those rows
        // and postings go, in place. Optional: a key that keeps them is still answered from them.
        migrator.registerMigration("v15-keys-of-one-token-unlisted") { db in
            try db.execute(sql: "CREATE TEMP TABLE unlisted_key (id INTEGER PRIMARY KEY)")
            let keys = try Row.fetchAll(db, sql: "SELECT text, id FROM prefix_key")
            let unlist = try db.cachedStatement(sql: "INSERT INTO unlisted_key (id) VALUES (?)")
            for key in keys {
                let tokens = try TokenRange.ids(startingWith: key[0], below: .max, limit: 2, in: db)
                let isLarge =
                    try tokens.count == 1
                    && PostingSegments.tokens.haveMoreEntries(
                        than: SearchStoreWriter.entriesOfAKeyOfOneToken, owners: tokens, in: db)
                if tokens.count < 2, !isLarge { try unlist.execute(arguments: [key[1] as Int64]) }
            }
            for table in [PostingSegments.prefixKeys.table, PostingSegments.prefixKeys.recentTable] {
                try db.execute(sql: "DELETE FROM \(table) WHERE id >> 32 IN (SELECT id FROM unlisted_key)")
            }
            try db.execute(
                sql: """
                    DELETE FROM \(PostingRuns.prefixKeys.table) WHERE id & 4294967295 IN (SELECT id FROM unlisted_key);
                    DELETE FROM prefix_key WHERE id IN (SELECT id FROM unlisted_key);
                    DROP TABLE unlisted_key;
                    """)
            try bumpTokenGeneration(in: db)
        }
        // A prefix key of two code points keeps where its tokens stand in each of its entries
        // (``PostingOwner/keyLengthWithPositions``), so that a phrase's last word is matched from
        // one list. The positions column is added to the three tables of prefix-key postings;
        // keys of other lengths leave it empty. The store holds derived data only: it is emptied
        // and rebuilt.
        migrator.registerMigration("v16-prefix-key-positions") { db in
            try emptyForFormatChange(in: db)
            try db.execute(
                sql: """
                    ALTER TABLE prefix_posting ADD COLUMN positions BLOB NOT NULL DEFAULT x'';
                    ALTER TABLE prefix_posting_recent ADD COLUMN positions BLOB NOT NULL DEFAULT x'';
                    ALTER TABLE prefix_posting_run ADD COLUMN positions BLOB NOT NULL DEFAULT x'';
                    """)
        }
        // A segment's entry numbers without its first, which its id holds already
        // (``DeltaList/bytes(afterFirst:)``). The store holds derived data only: it is emptied
        // and rebuilt.
        migrator.registerMigration("v17-segment-first-in-id") { db in
            try emptyForFormatChange(in: db)
        }
        return migrator
    }

    /// Makes `document_uri`, each document's URI: the fixed part, the main store's UUID as
    /// `store_info` holds it between the scheme and the entity (``EntryID``), then the number.
    private static let uriView = """
        DROP VIEW IF EXISTS document_uri;
        CREATE VIEW document_uri (id, uri) AS
        SELECT id, '\(EntryID.scheme)' || (SELECT value FROM store_info WHERE key = 'main_store') || '\(EntryID.entity)' || id
        FROM document;
        """

    /// Empties a store whose format changes, so that it is rebuilt from the entries, with
    /// progress, the next time it catches up (as a store made new is).
    private static func emptyForFormatChange(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM posting; DELETE FROM token; DELETE FROM prefix_posting; DELETE FROM prefix_key;
                DELETE FROM document; DELETE FROM date_bucket; DELETE FROM document_length;
                DELETE FROM posting_run; DELETE FROM prefix_posting_run;
                DELETE FROM posting_recent; DELETE FROM prefix_posting_recent; DELETE FROM prefix_snapshot;
                DELETE FROM store_info WHERE key NOT IN ('main_store', 'token_generation');
                """)
        try bumpTokenGeneration(in: db)
    }

    // MARK: Catch-up position

    /// How far the store has applied the main store's change history.
    struct Position: Equatable, Sendable {
        /// Every change up to this sequence number is applied.
        var appliedChange: Int64
        /// Within the next change, entries numbered up to this one are applied already.
        var resumeAfterEntry: Int64
        /// While a full rebuild is under way, the entry number it continues from.
        var rebuildFrom: Int64?
        /// The tag change `appliedChange` had in the main store's history (nil for a change
        /// recorded without one, or none): ``IndexStanding`` checks it is still that change.
        var appliedTag: Int64?

        static let fresh = Position(appliedChange: -1, resumeAfterEntry: 0, rebuildFrom: nil, appliedTag: nil)
        var isFresh: Bool { appliedChange < 0 }
    }

    static func position(in db: Database) throws -> Position {
        position(from: try info(in: db))
    }

    /// Every `store_info` value by key, read at once: its few rows are read whole more cheaply
    /// than one by one.
    static func info(in db: Database) throws -> [String: DatabaseValue] {
        try Dictionary(
            Row.fetchAll(db.cachedStatement(sql: "SELECT key, value FROM store_info")).map {
                ($0[0] as String, $0[1] as DatabaseValue)
            },
            uniquingKeysWith: { first, _ in first })
    }

    /// The position `store_info`'s `values` record.
    static func position(from values: [String: DatabaseValue]) -> Position {
        guard let applied = values["applied_change"].flatMap(Int64.fromDatabaseValue) else { return .fresh }
        return Position(
            appliedChange: applied,
            resumeAfterEntry: values["resume_after_entry"].flatMap(Int64.fromDatabaseValue) ?? 0,
            rebuildFrom: values["rebuild_from"].flatMap(Int64.fromDatabaseValue),
            appliedTag: values["applied_change_tag"].flatMap(Int64.fromDatabaseValue))
    }

    /// How many documents the store holds and how many words they have in all: what relevance
    /// needs of the whole journal (its size, its documents' average length), kept as they change.
    static func totals(in db: Database) throws -> (documents: Int, words: Int) {
        totals(from: try info(in: db))
    }

    /// The totals `store_info`'s `values` record.
    static func totals(from values: [String: DatabaseValue]) -> (documents: Int, words: Int) {
        (
            values["document_count"].flatMap(Int.fromDatabaseValue) ?? 0,
            values["word_count"].flatMap(Int.fromDatabaseValue) ?? 0
        )
    }

    /// Adds to the store's counts of documents and words (``totals(in:)``).
    static func addToTotals(documents: Int, words: Int, in db: Database) throws {
        guard documents != 0 || words != 0 else { return }
        let add = try db.cachedStatement(
            sql: "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = value + ?")
        try add.execute(arguments: ["document_count", documents, documents])
        try add.execute(arguments: ["word_count", words, words])
    }

    static func save(_ position: Position, in db: Database) throws {
        let upsert =
            "INSERT INTO store_info (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        try db.execute(sql: upsert, arguments: ["applied_change", position.appliedChange])
        try db.execute(sql: upsert, arguments: ["resume_after_entry", position.resumeAfterEntry])
        for (key, value) in [("rebuild_from", position.rebuildFrom), ("applied_change_tag", position.appliedTag)] {
            if let value {
                try db.execute(sql: upsert, arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM store_info WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Counts removals of tokens and prefix keys, so that a process may keep their ids in memory across
    /// transactions for as long as the count stays the same (ids are never reused otherwise).
    static func tokenGeneration(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'token_generation'") ?? 0
    }

    static func bumpTokenGeneration(in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO store_info (key, value) VALUES ('token_generation', 1)
                ON CONFLICT(key) DO UPDATE SET value = value + 1
                """)
    }

    /// Adds `count` to the documents written to recent segments since they were last merged
    /// (``PostingSegments``), and returns the new count.
    static func addRecentDocuments(_ count: Int, in db: Database) throws -> Int {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO store_info (key, value) VALUES ('recent_documents', ?)
                ON CONFLICT(key) DO UPDATE SET value = value + excluded.value RETURNING value
                """)
        return try Int.fetchOne(upsert, arguments: [count]) ?? 0
    }

    /// Forgets the count of recent documents, once every recent segment is merged.
    static func forgetRecentDocuments(in db: Database) throws {
        try db.execute(sql: "DELETE FROM store_info WHERE key = 'recent_documents'")
    }

    /// How far the store has applied the main store's change history.
    func position() throws(JournalError) -> Position {
        try read(Self.position(in:))
    }

    /// Empties the store, and forgets the prefix table's file, to rebuild everything from the
    /// entries of `main`, starting at its newest change.
    func resetForRebuild(from main: MainStore) throws(JournalError) {
        try write { searchDB in
            try main.pool.read { mainDB in try Self.reset(in: searchDB, from: mainDB) }
            try Self.forgetPrefixTableFile(in: searchDB)
        }
    }

    /// Forgets the prefix table's file: the next catch-up saves a new one (a copy of the store
    /// made under another key, or none, can't use the old file).
    func forgetPrefixTableFile() throws(JournalError) {
        try write(Self.forgetPrefixTableFile(in:))
    }

    private static func forgetPrefixTableFile(in db: Database) throws {
        try db.execute(sql: "DELETE FROM prefix_snapshot")
    }

    /// Empties the store and starts a full rebuild at the newest change of the main store read
    /// in `mainDB`.
    static func reset(in db: Database, from mainDB: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM posting; DELETE FROM token; DELETE FROM prefix_posting; DELETE FROM prefix_key;
                DELETE FROM document; DELETE FROM date_bucket; DELETE FROM document_length;
                DELETE FROM posting_run; DELETE FROM prefix_posting_run;
                DELETE FROM posting_recent; DELETE FROM prefix_posting_recent; DELETE FROM token_added;
                """)
        try db.execute(sql: "DELETE FROM store_info WHERE key IN ('document_count', 'word_count', 'recent_documents')")
        try db.execute(sql: uriView)
        try SearchVisibility.showAll(in: db)
        try bumpTokenGeneration(in: db)
        let latest = try MainStore.lastChange(in: mainDB)
        let tag = try MainStore.tag(ofChange: latest, in: mainDB)
        try save(Position(appliedChange: latest, resumeAfterEntry: 0, rebuildFrom: 1, appliedTag: tag), in: db)
    }

    /// How many entries the store indexes.
    func documentCount() throws(JournalError) -> Int {
        try StoreDatabase.guarded(url) {
            try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM document") ?? 0 }
        }
    }

    /// How many distinct tokens the store holds.
    func tokenCount() throws(JournalError) -> Int {
        try StoreDatabase.guarded(url) {
            try pool.read(Self.tokenCount(in:))
        }
    }

    /// How many rows the token table has, read in `db`.
    static func tokenCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM token") ?? 0
    }

    /// Every token with the number of entries holding it, most frequent first (ties by text).
    package func tokenFrequencies() throws(JournalError) -> [(text: String, documents: Int)] {
        try StoreDatabase.guarded(url) {
            try pool.read { db in
                let counts = try PostingSegments.tokens.documentCounts(in: db)
                return try Row.fetchAll(db, sql: "SELECT id, text FROM token")
                    .map { (text: $0[1] as String, documents: counts[$0[0] as Int64] ?? 0) }
                    .sorted { ($0.documents, $1.text) > ($1.documents, $0.text) }
            }
        }
    }
}
