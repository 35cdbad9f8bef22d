import Foundation
import GRDB
import JournalText

/// An entry ready for the main store: its text, and what is computed from it (its canonical
/// text and the tags written in it), its given tags and its star.
struct PreparedEntry: Sendable {
    let date: JournalDate
    let text: String
    let canonical: String
    let textTags: [Tag]
    let givenTags: [Tag]
    let starred: Bool
    let origin: String?
    /// The number of this journal's entry it was exported from, when an import says so: left
    /// out while that entry has its date and text (and its star and tags).
    var exportedFrom: Int64? = nil
    /// For an import from a format that carries no identity (jrnl's): left out when the store
    /// holds an entry that matches its date and text (and has its star and tags).
    var sameDateAndText: DateAndTextMatch? = nil
}

/// How an entry from a format without identities is recognised in a store: an entry dated
/// within `precision` after its date (the precision the format wrote it with) whose text has
/// the same `key` (the text as the format would write it).
package struct DateAndTextMatch: Sendable {
    /// Microseconds.
    package let precision: Int64
    package let key: @Sendable (String) -> String

    package init(precision: Int64, key: @escaping @Sendable (String) -> String) {
        self.precision = precision
        self.key = key
    }

    /// The same instant to the microsecond and the same text (canonically equivalent, as
    /// Swift compares strings): for this project's own JSON Lines, which write both exactly.
    package static let exact = DateAndTextMatch(precision: 1, key: { $0 })
}

/// The main store, `journal.sqlite`: entries with their canonical text, and the change history.
package final class MainStore: StoreFile {
    static let applicationID: Int32 = 0x4A52_4E4C  // "JRNL"

    package let url: URL
    package let pool: StorePool
    /// The store's UUID: the authority part of every entry URI.
    let storeID: UUID

    /// Opens (with `readOnly`, without writing anything) or creates the main store at `url`,
    /// through `encryption` when the journal is encrypted.
    init(
        url: URL, encryption: StoreEncryption? = nil, readOnly: Bool = false, readers: StoreDatabase.Readers = .pool
    ) throws(JournalError) {
        self.url = url
        if !readOnly { try DurableFiles.createPrivateFile(at: url) }
        (pool, storeID) = try StoreDatabase.guarded(url) {
            let (pool, facts) = try StoreDatabase.open(
                url, applicationID: Self.applicationID, durability: .durableAtCommit, encryption: encryption,
                identity: .mainStore,
                functions: [FoldFunction.function], readOnly: readOnly, readers: readers,
                beforeRead: PendingImportRecord.prepareRead)
            let migrated = try pool.migrate(with: Self.migrator, applied: facts.appliedMigrations)
            if facts.appliedMigrations.isEmpty, migrated {
                let claim = Self.fileClaim(url)
                try pool.write { db in try SyncLedger.noteFile(claim, in: db) }
            }
            let id = migrated ? try pool.read(StoreFacts.read).info["id"] : facts.info["id"]
            guard let id, let uuid = UUID(uuidString: id) else {
                throw JournalError.store("\(url.path) has no valid store identifier")
            }
            return (pool, uuid)
        }
    }

    /// The identity of the store's file (``FileIdentity/claim``), which a copy of the journal
    /// doesn't share; empty when it can't be read.
    var fileClaim: String { Self.fileClaim(url) }

    private static func fileClaim(_ url: URL) -> String { FileIdentity(path: url.path)?.claim ?? "" }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    -- n: the entry number of its URI; AUTOINCREMENT so a deleted entry's number is never reused.
                    -- date: microseconds since 1970 UTC. canonical: canonical(text), written with the text.
                    CREATE TABLE entry (
                        n INTEGER PRIMARY KEY AUTOINCREMENT,
                        date INTEGER NOT NULL,
                        text TEXT NOT NULL,
                        canonical TEXT NOT NULL
                    );
                    -- Newest first is (date DESC, n DESC): a backward scan of this index.
                    CREATE INDEX entry_by_date ON entry(date);
                    CREATE TABLE change (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete')),
                        first INTEGER NOT NULL,
                        last INTEGER NOT NULL
                    );
                    """)
            try db.execute(sql: "INSERT INTO store_info (key, value) VALUES ('id', ?)", arguments: [UUID().uuidString])
        }
        // Stars, and tags: those written in the text (computed here for every existing entry)
        // and those given explicitly.
        migrator.registerMigration("v2-tags-stars") { db in
            try db.execute(sql: "ALTER TABLE entry ADD COLUMN starred INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: EntryTags.schema)
            try EntryTags.tagExistingEntries(in: db)
        }
        // origin: an imported entry's identity in the application it came from (Day One's UUID),
        // so that importing it again adds nothing. The starred entries get an index of their own,
        // so that a filter on stars reads only them.
        migrator.registerMigration("v3-origin") { db in
            try db.execute(
                sql: """
                    ALTER TABLE entry ADD COLUMN origin TEXT;
                    CREATE UNIQUE INDEX entry_by_origin ON entry(origin) WHERE origin IS NOT NULL;
                    CREATE INDEX entry_starred ON entry(date) WHERE starred = 1;
                    """)
        }
        // A random tag on each change, so that a search store can tell whether the change it
        // applied last is this history's (``IndexStanding``).
        migrator.registerMigration("v4-change-tags") { db in
            try db.execute(sql: "ALTER TABLE change ADD COLUMN tag INTEGER")
        }
        // Tags as written: each tag keeps the form it was written in, and the journal shows
        // the form most used (``EntryTags``).
        migrator.registerMigration("v5-tag-forms") { db in
            try db.execute(sql: EntryTags.writtenFormsSchema)
            try EntryTags.writeExistingForms(in: db)
            try db.execute(sql: EntryTags.formCountTriggers)
        }
        // The sync ledger keyed by entry (store and number) instead of URI text
        // (``SyncLedger+EntryKeys.swift``); nothing to do for a journal that never synced.
        migrator.registerMigration("v6-sync-entry-keys") { db in
            try SyncLedger.keyEntriesByNumber(in: db)
        }
        return migrator
    }

    func guarded<T>(_ body: () throws -> T) throws(JournalError) -> T {
        try StoreDatabase.guarded(url, body)
    }

    /// Runs `body` in a write transaction, refused while an import is pending: every entry
    /// from its first on is the import's, and readers hide them all (``PendingImportRecord``).
    /// While the import is under way, the write waits for it, as it would for SQLite's write
    /// lock (``StoreDatabase/busyTimeout``); an interrupted one refuses it at once.
    func writeUnlessImportPending<T>(_ body: (Database) throws -> T) throws -> T {
        let deadline = ContinuousClock.now + .seconds(StoreDatabase.busyTimeout)
        while true {
            var pending: PendingImport?
            let result = try pool.write { db -> T? in
                pending = try PendingImportRecord.read(in: db)
                return pending == nil ? try body(db) : nil
            }
            if let result { return result }
            guard let pending else { preconditionFailure("a write neither ran nor found an import pending") }
            guard ImportLock.isHeld(besides: url), ContinuousClock.now < deadline else { throw refusal(pending) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Why a write is refused while `pending` is.
    private func refusal(_ pending: PendingImport) -> JournalError {
        if ImportLock.isHeld(besides: url) {
            return .importPending(
                "an import into this journal is under way (\(pending.writtenPhrase) so far): nothing was written; "
                    + "try again when it is done")
        }
        return .importPending(pending.interruptedRefusal("nothing was written"))
    }

    /// The pending import, if there is one (``PendingImport/isUnderWay`` set).
    func pendingImport() throws(JournalError) -> PendingImport? {
        try read { db in try PendingImportRecord.read(in: db) }.map { pending in
            var pending = pending
            pending.isUnderWay = ImportLock.isHeld(besides: url)
            return pending
        }
    }

    // MARK: Writing

    /// What every write does beside its own change, inside its transaction.
    struct WriteHooks {
        /// The last change every derived structure has applied: the history before it is pruned
        /// in the same transaction, so pruning costs no extra commit. That change itself stays,
        /// so that its tag can still be checked (``IndexStanding``).
        var pruningThrough: Int64
    }

    /// Inserts the entries `produce` hands over, all in one transaction with one `insert`
    /// change: if `produce` throws, nothing is written. An entry already in the store (see
    /// ``EntryInserter/isPresent(_:before:)``) is left out and counted. Returns the numbers given.
    func insert(
        _ hooks: WriteHooks, _ produce: (_ insert: (PreparedEntry) throws -> Void) throws -> Void
    ) throws(JournalError) -> (numbers: ClosedRange<Int64>?, alreadyPresent: Int) {
        let claim = fileClaim
        return try guarded {
            try writeUnlessImportPending { db in
                try SyncLedger.noteFile(claim, in: db)
                var first: Int64?
                var alreadyPresent = 0
                var inserter = try EntryInserter(db)
                try produce { entry in
                    guard let number = try inserter.insertUnlessPresent(entry, before: first) else {
                        alreadyPresent += 1
                        return
                    }
                    if first == nil { first = number }
                }
                try inserter.finish()
                guard let first else { return (nil, alreadyPresent) }
                let numbers = first...db.lastInsertedRowID
                try record(.insert, numbers, hooks, in: db)
                return (numbers, alreadyPresent)
            }
        }
    }

    /// Where an import's step leaves its input: recorded with the step, or, when `finished`,
    /// the import done.
    struct ImportStepEnd {
        var position: ImportPosition
        var bytesRead: Int
        /// Entries of the step left out for having no text.
        var empty: Int
        var finished: Bool
    }

    /// One step of an import, in one transaction: the entries `produce` hands over, and the
    /// record of the import (``PendingImport``) with where its input stands; in the last step
    /// (`produce` says the input is `finished`), the import's one `insert` change in place of
    /// the record, which makes all of its entries visible at once. An entry the store held
    /// before the import (see ``EntryInserter/isPresent(_:before:)``) is left out and counted. Returns
    /// the import as the step leaves it, and whether the step's pages were left in the WAL for
    /// a checkpoint to copy (``StoreFile/writeLeavingLog(_:)``): the caller may go on meanwhile.
    func writeImportStep(
        _ pending: PendingImport, _ hooks: WriteHooks,
        _ produce: (_ insert: (PreparedEntry) throws -> Int64?) throws -> ImportStepEnd
    ) throws(JournalError) -> (pending: PendingImport, leftLog: Bool) {
        let claim = fileClaim
        let step = try writeLeavingLog { db in
            try SyncLedger.noteFile(claim, in: db)
            var pending = pending
            var inserter = try EntryInserter(db)
            let end = try produce { entry in
                guard let number = try inserter.insertUnlessPresent(entry, before: pending.firstEntry) else {
                    pending.alreadyPresent += 1
                    return nil
                }
                if pending.firstEntry == nil { pending.firstEntry = number }
                pending.written += 1
                return number
            }
            try inserter.finish()
            pending.position = end.position
            pending.bytesRead = end.bytesRead
            pending.empty += end.empty
            guard end.finished else {
                try PendingImportRecord.write(pending, in: db)
                return pending
            }
            try PendingImportRecord.delete(in: db)
            if let first = pending.firstEntry {
                // No other write runs while an import is pending: its numbers are consecutive.
                try record(.insert, first...(first + Int64(pending.written) - 1), hooks, in: db)
            }
            return pending
        }
        return (step.value, step.leftLog)
    }

    /// Deletes up to `limit` entries of the pending import, newest first, or, once it has none
    /// left, its record. Returns the import as it stands after, nil once the record is gone.
    func abandonImportStep(limit: Int = 20_000) throws(JournalError) -> PendingImport? {
        try guarded {
            try pool.write { db in
                guard var pending = try PendingImportRecord.read(in: db) else { return nil }
                if let first = pending.firstEntry {
                    try db.execute(
                        sql: "DELETE FROM entry WHERE n IN (SELECT n FROM entry WHERE n >= ? ORDER BY n DESC LIMIT ?)",
                        arguments: [first, limit])
                    pending.written -= db.changesCount
                    if db.changesCount > 0 {
                        try PendingImportRecord.write(pending, in: db)
                        return pending
                    }
                }
                try PendingImportRecord.delete(in: db)
                return nil
            }
        }
    }

    /// Replaces an entry's text (with its canonical text and text tags) and date. False when
    /// there is no such entry.
    func update(_ number: Int64, _ entry: PreparedEntry, _ hooks: WriteHooks) throws(JournalError) -> Bool {
        try guarded {
            try writeUnlessImportPending { db in
                try db.execute(
                    sql: "UPDATE entry SET date = ?, text = CAST(? AS TEXT), canonical = CAST(? AS TEXT) WHERE n = ?",
                    arguments: [entry.date.microseconds, ExactText(entry.text), ExactText(entry.canonical), number])
                guard db.changesCount > 0 else { return false }
                try EntryTags.replaceTextTags(entry.textTags, for: number, in: db)
                try record(.update, number...number, hooks, in: db)
                return true
            }
        }
    }

    /// Removes the entries `numbers`, all in one transaction; returns the numbers there were.
    /// The history gets one change per run of consecutive numbers removed.
    func delete(_ numbers: [Int64], _ hooks: WriteHooks) throws(JournalError) -> [Int64] {
        try guarded {
            try writeUnlessImportPending { db in
                let statement = try db.cachedStatement(sql: "DELETE FROM entry WHERE n = ?")
                var deleted: [Int64] = []
                for number in Set(numbers).sorted() {
                    try statement.execute(arguments: [number])
                    if db.changesCount > 0 { deleted.append(number) }
                }
                guard !deleted.isEmpty else { return [] }
                try record(.delete, Change.runs(of: deleted), hooks, in: db)
                return deleted
            }
        }
    }

    /// Keeps the entry numbers up to `number` from ever being given to a new entry: those of
    /// entries the store lost, whose URIs may still be known elsewhere.
    func reserveEntryNumbers(through number: Int64) throws(JournalError) {
        try guarded {
            try writeUnlessImportPending { db in
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'entry'", arguments: [number])
                if db.changesCount == 0 {
                    try db.execute(
                        sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('entry', ?)", arguments: [number])
                }
            }
        }
    }

    /// Writes `canonical(text)` over every canonical text that differs from it, and the tags
    /// written in every text over its text tags, a few thousand entries at a time in number
    /// order, so that memory stays bounded; then counts the tags' forms again.
    func repairDerivedColumns(cancellation: Cancellation? = nil) throws(JournalError) {
        var after: Int64 = 0
        while let last = try guarded({ () throws -> Int64? in
            try cancellation?.check()
            return try writeUnlessImportPending { db in
                let rows = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT n, CAST(text AS BLOB), CAST(canonical AS BLOB) FROM entry WHERE n > ? ORDER BY n LIMIT 5000",
                    arguments: [after])
                let update = try db.cachedStatement(sql: "UPDATE entry SET canonical = CAST(? AS TEXT) WHERE n = ?")
                for row in rows {
                    let text = (row[1] as ExactText).string
                    let canonical = Fold.canonical(text)
                    if canonical != (row[2] as ExactText).string {
                        try update.execute(arguments: [ExactText(canonical), row[0] as Int64])
                    }
                    try EntryTags.replaceTextTags(Tags.inText(text), for: row[0], in: db)
                }
                return rows.last?[0] as Int64?
            }
        }) {
            after = last
        }
        try guarded { try writeUnlessImportPending(EntryTags.recount(in:)) }
    }

    func record(_ kind: Change.Kind, _ numbers: ClosedRange<Int64>, _ hooks: WriteHooks, in db: Database) throws {
        try record(kind, [numbers], hooks, in: db)
    }

    /// One change of `kind` per range, the history pruned first.
    func record(
        _ kind: Change.Kind, _ ranges: [ClosedRange<Int64>], _ hooks: WriteHooks, in db: Database
    ) throws {
        try db.execute(sql: "DELETE FROM change WHERE seq < ?", arguments: [hooks.pruningThrough])
        let statement = try db.cachedStatement(
            sql: "INSERT INTO change (kind, first, last, tag) VALUES (?, ?, ?, random())")
        for numbers in ranges {
            try statement.execute(arguments: [kind.rawValue, numbers.lowerBound, numbers.upperBound])
        }
    }

    /// Stars or unstars the entries `numbers`, in one transaction; returns the numbers there
    /// were. Nothing derived from the text changes, so no change is recorded.
    func setStarred(_ numbers: [Int64], _ starred: Bool) throws(JournalError) -> [Int64] {
        try guarded {
            try writeUnlessImportPending { db in
                let statement = try db.cachedStatement(sql: "UPDATE entry SET starred = ? WHERE n = ?")
                var found: [Int64] = []
                for number in Set(numbers).sorted() {
                    try statement.execute(arguments: [starred, number])
                    if db.changesCount > 0 { found.append(number) }
                }
                return found
            }
        }
    }

    /// Gives the entries `numbers` the tags `add` and takes the given tags `remove` away, in
    /// one transaction; returns, for each entry there was, the names of `remove` written in its
    /// text (which stay).
    func changeTags(_ numbers: [Int64], add: [Tag], remove: [String]) throws(JournalError) -> [Int64: [String]] {
        try guarded {
            try writeUnlessImportPending { db in
                let exists = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE n = ?)")
                var kept: [Int64: [String]] = [:]
                for number in Set(numbers).sorted() where try Bool.fetchOne(exists, arguments: [number]) == true {
                    try EntryTags.insert(add, given: true, for: number, in: db)
                    kept[number] = try EntryTags.removeGiven(remove, from: number, in: db)
                }
                return kept
            }
        }
    }

    /// Every tag with the number of entries that have it, most used first.
    func tagCounts() throws(JournalError) -> [(tag: Tag, entries: Int)] {
        try guarded { try pool.read(EntryTags.counts(in:)) }
    }

    // MARK: Reading

    /// The entries with these numbers, in one query per 500 numbers; missing ones are left out.
    func entries(numbered numbers: [Int64]) throws(JournalError) -> [Int64: Entry] {
        try entries(numbered: numbers) { _ in () }.entries
    }

    /// The entries `numbers`, and what `alongside` reads in the same transaction (one read
    /// fewer for a search that also asks how far the index is behind).
    func entries<T>(
        numbered numbers: [Int64], alongside: (Database) throws -> T
    ) throws(JournalError) -> (entries: [Int64: Entry], alongside: T) {
        try guarded {
            try pool.read { db in
                let extra = try alongside(db)
                var found: [Int64: Entry] = [:]
                let (tags, uris) = try Self.alongsideRows(numbers, storeID: storeID, in: db)
                let statement = try db.cachedStatement(
                    sql: "SELECT \(Self.entryColumns) FROM entry WHERE n \(SQLParameters.inJSONArray)")
                let rows = try Row.fetchCursor(statement, arguments: [SQLParameters.jsonArray(numbers)])
                while let row = try rows.next() {
                    let entry = Self.entry(from: row, tags: tags, syncURIs: uris, storeID: storeID)
                    found[entry.id.number] = entry
                }
                return (found, extra)
            }
        }
    }

    /// The identifiers of the entries `numbers`, in their order, each showing the URI sync knows
    /// it by.
    func ids(numbered numbers: [Int64]) throws(JournalError) -> [EntryID] {
        let uris = try guarded {
            try pool.read { db in try SyncLedger.syncURIs(of: numbers, storeID: storeID, in: db) }
        }
        return numbers.map { EntryID(storeID: storeID, number: $0, syncURI: uris[$0]) }
    }

    /// The entries that meet `restriction`, oldest first, `batchSize` at a time, each batch
    /// read in its own transaction, so that memory stays bounded whatever the journal's size.
    func forEachOldestFirst(
        meeting restriction: QueryCondition?, batchSize: Int = 1_000, _ body: ([Entry]) throws(JournalError) -> Void
    ) throws(JournalError) {
        let (condition, arguments) = restriction.sql()
        var after: (date: Int64, number: Int64) = (.min, 0)
        while true {
            let batch = try guarded {
                try pool.read { db in
                    let rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(Self.entryColumns) FROM entry
                            WHERE \(condition) AND (date > ? OR (date = ? AND n > ?)) ORDER BY \(restriction.dateOrder()), n LIMIT ?
                            """,
                        arguments: arguments + [after.date, after.date, after.number, batchSize])
                    let (tags, uris) = try Self.alongsideRows(rows.map { $0[0] as Int64 }, storeID: storeID, in: db)
                    return rows.map { Self.entry(from: $0, tags: tags, syncURIs: uris, storeID: storeID) }
                }
            }
            guard let last = batch.last else { return }
            try body(batch)
            after = (last.date.microseconds, last.id.number)
        }
    }

    /// The entries that meet `restriction`, in the page's date order, with their total count.
    func newestFirst(
        _ page: PageRequest, meeting restriction: QueryCondition?
    ) throws(JournalError) -> (total: Int, entries: [Entry]) {
        try guarded {
            try pool.read { db in
                let (total, rows) = try Self.page(page, of: Self.entryColumns, meeting: restriction, in: db)
                let (tags, uris) = try Self.alongsideRows(rows.map { $0[0] as Int64 }, storeID: storeID, in: db)
                return (total, rows.map { Self.entry(from: $0, tags: tags, syncURIs: uris, storeID: storeID) })
            }
        }
    }

    /// The numbers of the entries that meet `restriction`, in the page's date order, with their
    /// total count, both of one state of the store: the page read through the date index, not
    /// every number.
    func numbers(
        _ page: PageRequest, meeting restriction: QueryCondition?
    ) throws(JournalError) -> (total: Int, numbers: [Int64]) {
        try guarded {
            try pool.read { db in
                let (total, rows) = try Self.page(page, of: "n", meeting: restriction, in: db)
                return (total, rows.map { $0[0] as Int64 })
            }
        }
    }

    /// How many entries meet `restriction`, and the page's `columns` of them in its date order.
    private static func page(
        _ page: PageRequest, of columns: String, meeting restriction: QueryCondition?, in db: Database
    ) throws -> (total: Int, rows: [Row]) {
        let (condition, arguments) = restriction.sql()
        let total =
            try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE \(condition)", arguments: arguments) ?? 0
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(columns) FROM entry WHERE \(condition)
                ORDER BY \(restriction.dateOrder()) \(page.sqlDirection), n \(page.sqlDirection) LIMIT ? OFFSET ?
                """,
            arguments: arguments + [page.sqlLimit, page.offset])
        return (total, rows)
    }

    /// The dates of the entries that meet `restriction`, in microseconds.
    func dates(meeting restriction: QueryCondition?) throws(JournalError) -> [Int64] {
        let (condition, arguments) = restriction.sql()
        return try guarded {
            try pool.read { db in
                try Int64.fetchAll(db, sql: "SELECT date FROM entry WHERE \(condition)", arguments: arguments)
            }
        }
    }

    /// The dates of the entries `numbers` (those there are), in microseconds.
    func dates(of numbers: [Int64]) throws(JournalError) -> [Int64] {
        try guarded {
            try pool.read { db in
                let statement = try db.cachedStatement(
                    sql: "SELECT date FROM entry WHERE n \(SQLParameters.inJSONArray)")
                return try Int64.fetchAll(statement, arguments: [SQLParameters.jsonArray(numbers)])
            }
        }
    }

    /// Every tag of the entries `numbers` with how many of them have it, most used first.
    func tagCounts(of numbers: [Int64]) throws(JournalError) -> [(tag: Tag, entries: Int)] {
        try guarded { try pool.read { db in try EntryTags.counts(of: numbers, in: db) } }
    }

    /// The date of the earliest entry, through the date index; nil for an empty journal.
    func earliestDate() throws(JournalError) -> JournalDate? {
        try guarded {
            try pool.read { db in try Int64.fetchOne(db, sql: "SELECT min(date) FROM entry") }.map(JournalDate.init)
        }
    }

    /// The bytes of every entry's canonical text: what `contains[n]` stores besides the text.
    package func canonicalTextBytes() throws(JournalError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(CAST(canonical AS BLOB))), 0) FROM entry") ?? 0
        }
    }

    /// Hands `body` every entry's text as written, as UTF-8, in one read transaction.
    package func forEachText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(JournalError) {
        try read { db in
            let texts = try Row.fetchCursor(db, sql: "SELECT CAST(text AS BLOB) FROM entry")
            while let row = try texts.next() {
                (row[0] as Data).withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
            }
        }
    }

    func count() throws(JournalError) -> Int {
        try guarded { try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entry") ?? 0 } }
    }

    /// The columns ``entry(from:tags:syncURIs:storeID:)`` reads.
    private static let entryColumns = "n, date, CAST(text AS BLOB), starred, origin"

    /// What an entry holds besides its row, for the entries `numbers`: its tags, and the URI
    /// sync knows it by when that is not its own.
    private static func alongsideRows(
        _ numbers: [Int64], storeID: UUID, in db: Database
    ) throws -> (tags: [Int64: [Tag]], syncURIs: [Int64: String]) {
        (try EntryTags.tags(of: numbers, in: db), try SyncLedger.syncURIs(of: numbers, storeID: storeID, in: db))
    }

    /// An entry from a row of ``entryColumns``, with what ``alongsideRows(_:storeID:in:)`` read.
    private static func entry(
        from row: Row, tags: [Int64: [Tag]], syncURIs: [Int64: String], storeID: UUID
    ) -> Entry {
        let number: Int64 = row[0]
        return Entry(
            id: EntryID(storeID: storeID, number: number, syncURI: syncURIs[number]),
            date: JournalDate(microseconds: row[1]),
            text: (row[2] as ExactText).string,
            tags: tags[number] ?? [],
            starred: row[3],
            origin: row[4])
    }

    // MARK: For the derived stores

    /// The number and canonical text of an entry, as derived structures read it.
    struct CanonicalRow: Sendable {
        let number: Int64
        let date: JournalDate
        let canonical: String
    }

    /// Entries numbered from `numbers`, in number order: up to `limit` of them, and no more than
    /// `bytes` of canonical text unless the first alone is more. `full` says whether a limit
    /// stopped them (entries may be left in `numbers`).
    static func canonicalRows(
        in db: Database, _ numbers: ClosedRange<Int64>, limit: Int, bytes: Int
    ) throws -> (rows: [CanonicalRow], bytes: Int, full: Bool) {
        // A cursor whose values are read in place (``DirectColumns``): each row's text is copied
        // once, into its string, not first into a row kept until the last is read, nor into a
        // `Data` on the way: the indexer's first stage reads every entry through here.
        let statement = try db.cachedStatement(
            sql: "SELECT n, date, CAST(canonical AS BLOB) FROM entry WHERE n BETWEEN ? AND ? ORDER BY n LIMIT ?")
        let cursor = try Row.fetchCursor(
            statement, arguments: [numbers.lowerBound, numbers.upperBound, limit])
        var rows: [CanonicalRow] = []
        var total = 0
        while try cursor.next() != nil {
            let (canonical, size) = statement.withBlob(atColumn: 2) { (String(decoding: $0, as: UTF8.self), $0.count) }
            if !rows.isEmpty, total + size > bytes { return (rows, total, true) }
            rows.append(
                CanonicalRow(
                    number: statement.int64(atColumn: 0), date: JournalDate(microseconds: statement.int64(atColumn: 1)),
                    canonical: canonical))
            total += size
        }
        return (rows, total, rows.count == limit)
    }

    /// Changes after `sequence`, oldest first.
    static func changes(in db: Database, after sequence: Int64, limit: Int) throws -> [Change] {
        try Row.fetchAll(
            db, sql: "SELECT seq, kind, first, last, tag FROM change WHERE seq > ? ORDER BY seq LIMIT ?",
            arguments: [sequence, limit]
        ).compactMap { row in
            guard let kind = Change.Kind(rawValue: row[1]) else { return nil }
            return Change(sequence: row[0], kind: kind, entries: row[2]...row[3], tag: row[4])
        }
    }

    /// The tag of change `sequence`, or nil when the history no longer holds it (or it has none).
    static func tag(ofChange sequence: Int64, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT tag FROM change WHERE seq = ?"), arguments: [sequence])
    }

    /// The sequence number of the newest change, pruned or not.
    func lastChange() throws(JournalError) -> Int64 {
        try read(Self.lastChange(in:))
    }

    /// Runs `body` holding the store's write lock (a write transaction that writes nothing and is
    /// rolled back): no other connection commits to the store meanwhile.
    func holdingWriteLock<T>(_ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        try StoreDatabase.guarded(url) {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                defer { try? db.execute(sql: "ROLLBACK") }
                if let pending = try PendingImportRecord.read(in: db) { throw refusal(pending) }
                return try body()
            }
        }
    }

    /// How many entry numbers the changes after `sequence` span (an entry changed twice counts
    /// twice): about how many entries they touch, for progress.
    static func entriesChanged(after sequence: Int64, in db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT coalesce(sum(last - first + 1), 0) FROM change WHERE seq > ?", arguments: [sequence]) ?? 0
    }

    /// How many entries are numbered `first` or above.
    static func entryCount(from first: Int64, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE n >= ?", arguments: [first]) ?? 0
    }

    /// The sequence number of the newest change, pruned or not (AUTOINCREMENT keeps it).
    static func lastChange(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'change'")) ?? 0
    }

    /// The newest change no longer in the history: a derived structure that applied less than
    /// this (a search store restored from an old copy) cannot catch up and must be rebuilt.
    /// Sequence numbers have no gaps (a rolled-back change rolls back its number too).
    static func prunedThrough(in db: Database) throws -> Int64 {
        if let oldest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(seq) FROM change")) { return oldest - 1 }
        return try lastChange(in: db)
    }
}
