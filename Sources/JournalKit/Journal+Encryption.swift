import CFileExchange
import Foundation

/// What a conversion (``Journal/encrypt(_:passphrase:cost:progress:)``,
/// ``Journal/decrypt(_:passphrase:progress:)``, ``Journal/rekey(_:passphrase:newPassphrase:cost:progress:)``)
/// left as it was, for the caller to tell the user.
public struct ConversionReport: Sendable {
    /// Files of the folder that are not the journal's (an export, a backup), kept through the
    /// conversion as they were: encrypting the journal does not encrypt them.
    public let otherFiles: [String]
    /// The folder that held the journal's previous files, when it could not be removed (a
    /// journal in plain text, or encrypted under the key replaced); nil once they are deleted.
    public let leftOver: URL?
}

extension Journal {
    /// Encrypts the journal in `directory`, in plain text until now, under `passphrase` (see
    /// <doc:EncryptedJournals>): all or nothing, and no other process commits to it meanwhile.
    ///
    /// The encrypted journal is built beside the folder, checked, and swapped with it in one
    /// step; then the plain-text files are deleted. Deleting does not wipe: their bytes may stay
    /// on the disk until overwritten, and copies made before (backups) stay in plain text.
    @discardableResult
    public static func encrypt(
        _ directory: StoreDirectory, passphrase: Passphrase, cost: KeyDerivationCost = .moderate, progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        guard !directory.isEncrypted else { throw .usage("the journal in \(directory.url.path) is encrypted already") }
        let source = try Journal(directory: directory, create: false)
        let dataKey = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        let keyFile = try JournalKeyFile.wrapping(dataKey, passphrase: passphrase, cost: cost)
        return try convert(source, to: StoreEncryption(key: dataKey), keyFile: keyFile, progress: progress)
    }

    /// Decrypts the encrypted journal in `directory` back to plain text, all or nothing, as
    /// ``encrypt(_:passphrase:cost:progress:)`` encrypts one.
    @discardableResult
    public static func decrypt(
        _ directory: StoreDirectory, passphrase: Passphrase, progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        guard directory.isEncrypted else { throw .usage("the journal in \(directory.url.path) is not encrypted") }
        let source = try Journal(directory: directory, create: false, passphrase: passphrase)
        return try convert(source, to: nil, keyFile: nil, progress: progress)
    }

    /// Re-encrypts the encrypted journal in `directory` under a new data key, drawn at random,
    /// all or nothing, as ``encrypt(_:passphrase:cost:progress:)`` encrypts one: never in plain
    /// text on disk. The new key is wrapped under `newPassphrase`, or the current `passphrase`
    /// when nil, at `cost` (by default the journal's).
    ///
    /// Afterwards no key file of the journal from before, with the passphrase it was wrapped
    /// under, opens the journal's files: what changing the passphrase alone
    /// (``changePassphrase(of:from:to:cost:)``) cannot do.
    @discardableResult
    public static func rekey(
        _ directory: StoreDirectory, passphrase: Passphrase, newPassphrase: Passphrase? = nil, cost: KeyDerivationCost? = nil,
        progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        guard let current = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .usage("the journal in \(directory.url.path) is not encrypted")
        }
        let source = try Journal(directory: directory, create: false, passphrase: passphrase)
        let kept = try KeyDerivationCost(passes: current.derivation.passes, memoryBytes: current.derivation.memoryBytes)
        let dataKey = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        let keyFile = try JournalKeyFile.wrapping(dataKey, passphrase: newPassphrase ?? passphrase, cost: cost ?? kept)
        return try convert(source, to: StoreEncryption(key: dataKey), keyFile: keyFile, progress: progress)
    }

    /// Changes an encrypted journal's passphrase from `old` to `new`, at `cost` (by default the
    /// one it has): the data key is wrapped anew, and no store is rewritten. A key file from
    /// before (a backup, a synced folder's history) still opens the journal with the old
    /// passphrase: ``rekey(_:passphrase:newPassphrase:cost:progress:)`` replaces the data key.
    public static func changePassphrase(
        of directory: StoreDirectory, from old: Passphrase, to new: Passphrase, cost: KeyDerivationCost? = nil
    ) throws(JournalError) {
        guard let keyFile = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .usage("the journal in \(directory.url.path) is not encrypted")
        }
        let dataKey = try keyFile.unwrap(old)
        let kept = try KeyDerivationCost(passes: keyFile.derivation.passes, memoryBytes: keyFile.derivation.memoryBytes)
        let cost = cost ?? kept
        try JournalKeyFile.wrapping(dataKey, journal: keyFile.journal, passphrase: new, cost: cost).write(to: directory.keyFileURL)
    }

    /// Checks `passphrase` against the encrypted journal in `directory` without opening it:
    /// one Argon2id derivation at the journal's cost and the unwrapping of its key. A wrong
    /// passphrase is a ``JournalError/Kind/wrongPassphrase`` error.
    public static func checkPassphrase(_ passphrase: Passphrase, for directory: StoreDirectory) throws(JournalError) {
        guard let keyFile = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .usage("the journal in \(directory.url.path) is not encrypted")
        }
        _ = try keyFile.unwrap(passphrase)
    }

    /// Copies `source`'s stores into a new folder beside it, through `encryption` (nil: plain
    /// text) with `keyFile`, while holding its main store's write lock and its catch-up lock;
    /// checks the copy; swaps the two folders in one step; removes the old one.
    private static func convert(
        _ source: Journal, to encryption: StoreEncryption?, keyFile: JournalKeyFile?, progress: ProgressHandler?
    ) throws(JournalError) -> ConversionReport {
        let directory = source.directory
        if let reason = source.readOnlyReason { throw .store(reason) }
        let staging = StoreDirectory(
            directory.url.deletingLastPathComponent().appendingPathComponent(".\(directory.url.lastPathComponent).converting"))
        if FileManager.default.fileExists(atPath: staging.url.path) {
            // A conversion cut short: its half-built copy.
            do { try FileManager.default.removeItem(at: staging.url) } catch {
                throw .store("cannot remove \(staging.url.path), left by a conversion cut short: \(error.localizedDescription)")
            }
        }
        try DurableFiles.createFolder(staging.url)
        var swapped = false
        // Before the swap, the staging path holds the half-built copy; after, the old journal,
        // removed below where the outcome is told.
        defer { if !swapped { try? FileManager.default.removeItem(at: staging.url) } }
        defer { try? source.close() }
        let lock = try CatchUpLock.acquire(besides: source.search.url, timeout: StoreDatabase.busyTimeout)
        defer { lock.release() }
        let sourceEncryption = source.encryption
        var otherFiles: [String] = []
        try StoreDatabase.guarded(source.main.url) {
            try source.main.pool.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                defer { try? db.execute(sql: "ROLLBACK") }
                let entries = try source.main.count()
                let total = StoreDirectory.fileBytes(source.main.url) + StoreDirectory.fileBytes(source.search.url)
                let mainBytes = StoreDirectory.fileBytes(source.main.url)
                try StoreCopy.copy(
                    source.main.url, encryption: sourceEncryption, identity: .mainStore, to: staging.mainStoreURL, encryption: encryption
                ) { done, _ in progress?(JournalProgress(phase: .converting, done: done, total: total)) }
                try StoreCopy.copy(
                    source.search.url, encryption: sourceEncryption, identity: .searchStore, to: staging.searchStoreURL,
                    encryption: encryption
                ) { done, _ in progress?(JournalProgress(phase: .converting, done: mainBytes + done, total: total)) }
                try keyFile?.write(to: staging.keyFileURL)
                otherFiles = try linkOtherFiles(from: directory, to: staging)
                let copy = try Journal(directory: staging, unwritable: nil, encryption: encryption, use: .kept, progress: nil)
                // The prefix table file stays behind: an encrypted journal has none, and a
                // journal in plain text saves its own when it next catches up.
                try copy.search.pool.write { db in try db.execute(sql: "DELETE FROM prefix_snapshot") }
                let copied = try copy.main.count()
                try copy.close()
                guard copied == entries else {
                    throw JournalError.store("the converted copy holds \(copied) entries, not \(entries): nothing was changed")
                }
                try DurableFiles.syncFolder(staging.url)
                guard file_exchange(staging.url.path, directory.url.path) == 0 else {
                    throw JournalError.store(
                        "cannot put the converted journal in place of \(directory.url.path): \(String(cString: strerror(errno))); nothing was changed"
                    )
                }
                swapped = true
                try DurableFiles.syncFolder(directory.url.deletingLastPathComponent())
            }
        }
        try? source.close()
        do {
            try FileManager.default.removeItem(at: staging.url)
        } catch {
            return ConversionReport(otherFiles: otherFiles, leftOver: staging.url)
        }
        return ConversionReport(otherFiles: otherFiles, leftOver: nil)
    }

    /// Links the files of `directory` that are not the journal's own into `staging` (both on one
    /// file system), so the swap keeps them, and returns their names; a folder inside is an error.
    private static func linkOtherFiles(from directory: StoreDirectory, to staging: StoreDirectory) throws(JournalError) -> [String] {
        // The journal's own files, and what an edit cut short left (the edited text, in plain
        // text: removed with the old folder, not carried into the new one).
        let own = ["journal.sqlite", "search.sqlite", "journal.key", "journal-edit"]
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path) } catch {
            throw .store("cannot list \(directory.url.path): \(error.localizedDescription)")
        }
        let others = names.filter { name in !own.contains(where: { name == $0 || name.hasPrefix($0 + "-") || name.hasPrefix("." + $0) }) }
        for name in others {
            let path = directory.url.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard !isFolder.boolValue else {
                throw .usage("\(directory.url.path) holds a folder, \(name), besides the journal: move it out first; nothing was changed")
            }
            guard link(path, staging.url.appendingPathComponent(name).path) == 0 else {
                throw .store("cannot keep \(path) through the conversion: \(String(cString: strerror(errno))); nothing was changed")
            }
        }
        return others.sorted()
    }
}
