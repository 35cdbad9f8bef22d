import CEncryptedVFS
import Foundation
import GRDB

/// Opening and guarding the SQLite files of a journal.
package enum StoreDatabase {
    /// How reads reach a store.
    enum Readers {
        /// A pool of connections: reads run several at a time (GRDB's `DatabasePool`, which
        /// opens a connection of its own besides its readers).
        case pool
        /// One connection: reads run one after the other.
        case one
    }

    /// How long a writer waits for another process's write to finish before giving up.
    static let busyTimeout: TimeInterval = 60
    /// How long emptying the WAL after a large write waits for readers of an older state.
    static let checkpointWait: TimeInterval = 1

    /// Pages the writer keeps in memory, in KiB: enough that a large transaction (an import's
    /// batch, a merge of staged postings) writes each page it changes to the log about once,
    /// rather than spilling pages to the log and writing them again as it changes them; more
    /// would add to an import's peak memory for little less log (the figures behind the size
    /// are in `Benchmarks/README.md`).
    static let writerCacheKiB = 8_192

    /// SQLite's scratch space on a new connection. Temporary tables, sorts and statement
    /// journals stay in memory: in files (`etilqs_*` in `/var/tmp`) they would hold what an
    /// encrypted journal must never write in the clear, and an import would write statement
    /// journals there for nothing (each statement's is dropped when it ends). The writer keeps
    /// ``writerCacheKiB`` of pages; readers keep SQLite's default, since short-lived processes
    /// read few pages and a long-lived one has several readers.
    private static func prepareScratch(_ db: Database) throws {
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
        if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(writerCacheKiB)") }
    }

    /// The connections to an existing or new store file, in WAL mode, tagged with
    /// `applicationID` so that a foreign SQLite file is recognised rather than written into.
    /// Reading writes nothing; the first write opens the writer (see ``StorePool``).
    ///
    /// With `readOnly`, nothing is ever written, not even the WAL file: a store whose WAL is
    /// gone (closed cleanly) is opened as immutable, which SQLite can read where it can create
    /// no file; one with a WAL (another process has it open, or one died) is read through it.
    ///
    /// `durability` says what a power cut may take from the file (``Durability``); the writer
    /// keeps it in force.
    ///
    /// `encryption` opens an encrypted journal's store through its VFS, as `identity`.
    ///
    /// `readers` says how many connections reads go through: a pool of them for a journal kept
    /// open, one for a process that answers once (each costs an open and a read of the schema).
    /// `beforeRead` runs first in each of their read transactions.
    ///
    /// `givesPagesBack`: a new file is made with SQLite's incremental vacuum, so that the pages
    /// rows leave free can be given back to the file system (``FreePages``); an existing file
    /// keeps the mode it was made with.
    ///
    /// Returns the connections with what opening read of the store (``StoreFacts``).
    static func open(
        _ url: URL, applicationID: Int32, durability: Durability, encryption: StoreEncryption? = nil,
        identity: StoreEncryption.Identity, functions: [DatabaseFunction] = [], readOnly: Bool = false,
        readers: Readers = .pool, givesPagesBack: Bool = false, beforeRead: (@Sendable (Database) throws -> Void)? = nil
    ) throws -> (StorePool, StoreFacts) {
        LogOwnership.installed
        func configuration(readOnly: Bool) -> Configuration {
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            configuration.readonly = readOnly
            configuration.prepareDatabase { db in
                if encryption != nil { try StoreEncryption.prepare(db) }
                for function in functions { db.add(function: function) }
                try prepareScratch(db)
                // Before GRDB puts a new file in WAL mode, after which the mode can't change
                // without rewriting the file. Only on a new file: on any other, the pragma changes
                // nothing but still writes the file's header, a commit on every opening.
                if givesPagesBack, !readOnly, try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                }
            }
            return configuration
        }
        func location(immutable: Bool) -> String {
            Self.location(
                of: url, encryption: encryption, identity: identity, immutable: immutable,
                strictLog: durability == .durableAtCommit)
        }
        // A plain store's log, checked before SQLite recovers it (an encrypted one's VFS checks
        // it as SQLite reads it).
        if encryption == nil, durability == .durableAtCommit { try WriteAheadLogCheck.check(url) }
        if !readOnly {
            try rollBackInterruptedSetUp(
                location(immutable: false), url: url, configuration: configuration(readOnly: false),
                encrypted: encryption != nil)
        }
        let walBytes = StoreDirectory.fileSize(atPath: url.path + "-wal") ?? 0
        let readingLocation = location(immutable: readOnly && walBytes == 0)
        let readers: any DatabaseReader =
            switch readers {
            case .pool: try DatabasePool(path: readingLocation, configuration: configuration(readOnly: true))
            case .one: try DatabaseQueue(path: readingLocation, configuration: configuration(readOnly: true))
            }
        let facts = try readers.read(StoreFacts.read)
        // A store whose creation was cut short holds nothing, or only GRDB's empty record of
        // migrations (created in a transaction of its own before the first migration's).
        guard
            facts.applicationID == applicationID
                || (facts.applicationID == 0 && facts.schemaObjects == 0 && facts.appliedMigrations.isEmpty)
        else {
            throw JournalError.store("\(url.path) is not a journal store file (it is some other SQLite database)")
        }
        let writable = configuration(readOnly: false)
        let pool = StorePool(
            readers: readers, durability: durability, file: url, beforeRead: beforeRead,
            openWriter: readOnly
                ? nil
                : {
                    // On a missing or empty WAL, GRDB commits a transaction of its own while it
                    // sets up WAL mode, under the NORMAL it has just set: sync it, so that no write
                    // to a durable store is ever left unsynced, even one that changes nothing.
                    let walWasEmpty = (StoreDirectory.fileSize(atPath: url.path + "-wal") ?? 0) == 0
                    let writer = try DatabasePool(path: location(immutable: false), configuration: writable)
                    if durability == .durableAtCommit, walWasEmpty {
                        try DurableFiles.syncFile(atPath: url.path + "-wal")
                    }
                    return writer
                },
            openSideConnection: readOnly
                ? nil : { try DatabaseQueue(path: location(immutable: false), configuration: writable) })
        return (pool, facts)
    }

    /// Where SQLite opens the store at `url`: its path, or a URI naming the VFS and options
    /// (`strictLog`: see ``StoreEncryption/location(of:identity:immutable:strictLog:)``).
    static func location(
        of url: URL, encryption: StoreEncryption?, identity: StoreEncryption.Identity, immutable: Bool = false,
        strictLog: Bool = false
    ) -> String {
        if let encryption {
            return encryption.location(of: url, identity: identity, immutable: immutable, strictLog: strictLog)
        }
        guard immutable, let encoded = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
            return url.path
        }
        return "file:\(encoded)?immutable=1"
    }

    /// Rolls back the transaction a process that died left in a rollback journal beside the
    /// store: SQLite puts a new store in WAL mode with one such transaction, and a read-only
    /// connection can't roll it back (it fails with SQLITE_READONLY_ROLLBACK), so the first
    /// connection must be one that can write.
    ///
    /// An encrypted store's rollback journal is sealed under a key its writer drew and never
    /// kept (a scratch file of the encrypting VFS): no other process can read it. Its one
    /// transaction wrote the first page of an empty file, so the setup is undone by emptying the
    /// file (synced) and removing the journal; the store is then set up anew, as if never begun.
    private static func rollBackInterruptedSetUp(
        _ location: String, url: URL, configuration: Configuration, encrypted: Bool
    ) throws {
        let journal = url.path + "-journal"
        guard FileManager.default.fileExists(atPath: journal) else { return }
        if encrypted, (StoreDirectory.fileSize(atPath: url.path) ?? 0) <= Int(ENCRYPTED_VFS_PAGE_SIZE) {
            guard truncate(url.path, 0) == 0 else {
                throw JournalError.store(
                    "cannot undo the interrupted setting up of \(url.path): \(String(cString: strerror(errno)))",
                    file: url.path)
            }
            try DurableFiles.syncFile(atPath: url.path)
            unlink(journal)
            try DurableFiles.syncFolder(url.deletingLastPathComponent())
            return
        }
        let queue = try DatabaseQueue(path: location, configuration: configuration)
        _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") }
        try queue.close()
    }

    /// The one-line message for a failure on `url`.
    static func describe(_ error: Error, file url: URL) -> JournalError {
        if let error = error as? JournalError { return error }
        if let error = error as? DatabaseError {
            // The encrypting VFS says which page it refused, and why, beside SQLite's result.
            if [.SQLITE_IOERR_DATA, .SQLITE_IOERR_WRITE, .SQLITE_CANTOPEN].contains(error.extendedResultCode),
                let failure = StoreEncryption.lastFailure(of: url.path)
            {
                return .store(failure, file: url.path)
            }
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .store(
                    "\(url.path) is corrupt or not a database (\(error.message ?? "\(error.resultCode)"))",
                    file: url.path)
            case .SQLITE_INTERRUPT:
                return .cancelled
            case .SQLITE_FULL:
                return .store("\(url.path): the disk is full", file: url.path)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .store(
                    "\(url.path) is busy: another process kept it locked for over \(Int(busyTimeout)) s", file: url.path
                )
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
                return .store(
                    "\(url.path) cannot be written (\(error.message ?? "\(error.resultCode)"))", file: url.path)
            default:
                return .store("\(url.path): \(error.message ?? "\(error.resultCode)")", file: url.path)
            }
        }
        return .store("\(url.path): \(error)", file: url.path)
    }

    /// What is wrong with the pages of the store at `url`, read in `db`, a line each (none when
    /// every page reads and its B-trees have the right shape: SQLite's `PRAGMA quick_check`,
    /// which reads every page, indexes too); a page the encrypting VFS refused comes with its
    /// reason. A store it cannot read at all throws, naming `url`.
    static func pageProblems(in db: Database, url: URL) throws(JournalError) -> [String] {
        let results = try guarded(url) { try String.fetchAll(db, sql: "PRAGMA quick_check") }
        guard results != ["ok"] else { return [] }
        // A result may hold several lines, the first naming the schema ("*** in database main ***").
        var lines = results.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** ") }
        if lines.contains(where: { $0.contains("error code=\(ResultCode.SQLITE_IOERR_DATA.rawValue)") }),
            let failure = StoreEncryption.lastFailure(of: url.path)
        {
            lines.append(failure)
        }
        return lines
    }

    /// Runs `body`, turning any database error into a one-line `JournalError` naming `url`.
    package static func guarded<T>(_ url: URL, _ body: () throws -> T) throws(JournalError) -> T {
        do { return try body() } catch { throw describe(error, file: url) }
    }
}
