import Foundation
import GRDB

/// A journal's files opened as one: the key file unlocked into the encrypting file layer, the
/// main store and the search store through it, opened for reading only where the folder or the
/// disk can't be written. The one place that decides how a journal's files are opened; the
/// whole-journal operations on files (conversion, copy) are here too
/// (`JournalStores+Conversion.swift`).
///
/// Invariant: both stores are opened through the same encryption, for the same use, and the
/// search store belongs to the main store beside it (a foreign one is replaced).
package struct JournalStores: Sendable {
    package let directory: StoreDirectory
    package let main: MainStore
    package let search: SearchStore
    /// The encrypting file layer of an encrypted journal; nil for a journal in plain text.
    package let encryption: StoreEncryption?
    /// Why the stores can't be written (the folder, or the disk when opening for writing failed),
    /// or nil when they can.
    package let unwritable: String?

    /// Opens the journal in `directory` (a missing one created with `create`), unlocking it with
    /// `passphrase` when it is encrypted. Without the passphrase an encrypted journal is a
    /// ``JournalError/Kind/passphraseRequired`` error, with a wrong one
    /// ``JournalError/Kind/wrongPassphrase``, and a journal in plain text takes none.
    ///
    /// A folder swapped for another while it is being opened (a conversion in another process)
    /// is opened again, so that the key file and both stores are read from one folder.
    package static func open(
        _ directory: StoreDirectory, create: Bool, passphrase: Passphrase?, use: JournalUse
    ) throws(JournalError) -> JournalStores {
        let unwritable = try directory.prepare(create: create)
        var attempts = 0
        while true {
            attempts += 1
            let folder = FileIdentity(path: directory.url.path)
            do {
                // A journal is created holding its lock: `init --encrypt` or another creation
                // in another process then finds it whole, never half made.
                let creating =
                    create && unwritable == nil && !FileManager.default.fileExists(atPath: directory.mainStoreURL.path)
                let lock = creating ? try JournalLock.forChange(of: directory) : nil
                defer { lock?.release() }
                let stores = try open(
                    directory, unwritable: unwritable, encryption: encryption(of: directory, passphrase: passphrase),
                    use: use, folder: folder)
                if attempts >= 3 || FileIdentity(path: directory.url.path) == folder { return stores }
                try? stores.close()
            } catch {
                if attempts >= 3 || FileIdentity(path: directory.url.path) == folder { throw error }
            }
        }
    }

    /// Creates an encrypted journal in `directory` (created when missing, and which must hold no
    /// journal yet): a data key drawn at random, wrapped under `passphrase` at `cost`; opens it.
    package static func createEncrypted(
        in directory: StoreDirectory, passphrase: Passphrase, cost: KeyDerivationCost
    ) throws(JournalError) -> JournalStores {
        let unwritable = try directory.prepare(create: true)
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        guard !FileManager.default.fileExists(atPath: directory.mainStoreURL.path), !directory.isEncrypted else {
            throw .usage("\(directory.url.path) already holds a journal")
        }
        let dataKey = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        try JournalKeyFile.wrapping(dataKey, passphrase: passphrase, cost: cost).write(to: directory.keyFileURL)
        return try open(
            directory, unwritable: unwritable, encryption: StoreEncryption(key: dataKey), use: .kept,
            folder: FileIdentity(path: directory.url.path))
    }

    /// Opens the stores of `directory` through `encryption`, `unwritable` saying why they can't be
    /// written (nil when they can). Opening for writing writes (the WAL, its index), which a full
    /// disk refuses: then the stores are opened for reading, and `unwritable` says why.
    ///
    /// `folder` is the folder's identity when opening began: a search store that must be replaced
    /// is replaced holding the journal's lock, and only while the folder is still that one.
    static func open(
        _ directory: StoreDirectory, unwritable: String?, encryption: StoreEncryption?, use: JournalUse,
        folder: FileIdentity?
    ) throws(JournalError) -> JournalStores {
        // An empty main store is a journal whose creation was cut short, unless its search store
        // holds what was indexed from it: then its entries are missing, not yet to be written.
        if StoreDirectory.fileSize(atPath: directory.mainStoreURL.path) == 0,
            StoreDirectory.fileBytes(directory.searchStoreURL) > 0
        {
            throw .store(
                "\(directory.mainStoreURL.path) is empty while the search store beside it is not: its entries are missing (the file was emptied or cut short)",
                file: directory.mainStoreURL.path)
        }
        let readers: StoreDatabase.Readers = use == .kept ? .pool : .one
        var replacementLock: JournalLock?
        defer { replacementLock?.release() }
        func stores(readOnly: Bool) throws(JournalError) -> (MainStore, SearchStore) {
            let main = try MainStore(
                url: directory.mainStoreURL, encryption: encryption, readOnly: readOnly, readers: readers)
            let search = try SearchStore(
                url: directory.searchStoreURL, mainStoreID: main.storeID, encryption: encryption, readOnly: readOnly,
                readers: readers
            ) { () throws(JournalError) in
                replacementLock = try JournalLock.acquire(
                    directory, purpose: "replacing the search store", timeout: StoreDatabase.busyTimeout)
                guard FileIdentity(path: directory.url.path) == folder else {
                    throw .store("the journal in \(directory.url.path) was replaced while it was being opened")
                }
            }
            return (main, search)
        }
        var unwritable = unwritable
        let opened: (MainStore, SearchStore)
        do {
            opened = try stores(readOnly: unwritable != nil)
        } catch
            where unwritable == nil && error.kind == .store
            && FileManager.default.fileExists(atPath: directory.mainStoreURL.path)
        {
            guard let readOnly = try? stores(readOnly: true) else { throw error }
            opened = readOnly
            unwritable = error.message
        }
        return JournalStores(
            directory: directory, main: opened.0, search: opened.1, encryption: encryption, unwritable: unwritable)
    }

    /// The encrypting file layer of the journal in `directory`, its data key unwrapped with
    /// `passphrase`; nil when the journal is in plain text.
    private static func encryption(
        of directory: StoreDirectory, passphrase: Passphrase?
    ) throws(JournalError) -> StoreEncryption? {
        guard let keyFile = try JournalKeyFile.read(at: directory.keyFileURL) else {
            guard passphrase == nil else {
                throw .usage("the journal in \(directory.url.path) is not encrypted: it takes no passphrase")
            }
            return nil
        }
        guard let passphrase else {
            throw JournalError(
                .passphraseRequired, "the journal in \(directory.url.path) is encrypted: its passphrase is needed")
        }
        return try StoreEncryption(key: keyFile.unwrap(passphrase))
    }

    /// Closes both stores' connections now.
    package func close() throws(JournalError) {
        try main.close()
        try search.close()
    }

    /// Empties both stores' WALs after a large write (``StoreFile/checkpoint()``). One that
    /// fails (a full disk) leaves its WAL to the last close.
    package func checkpointAfterLargeWrite() {
        try? main.checkpoint()
        try? search.checkpoint()
    }
}

extension JournalStores {
    /// Runs `body` in a read transaction on each store, the search store's begun first, both
    /// interrupted once `cancellation` is raised: what a check that the two agree reads.
    package func readBoth<T>(
        cancellation: Cancellation?, _ body: (_ main: Database, _ search: Database) throws -> T
    ) throws(JournalError) -> T {
        try search.read(cancellation: cancellation) { searchDB in
            try main.pool.read { mainDB in
                guard let cancellation else { return try body(mainDB, searchDB) }
                return try cancellation.watching(mainDB) { try body(mainDB, searchDB) }
            }
        }
    }
}
