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
        _ directory: StoreDirectory, passphrase: Passphrase, cost: KeyDerivationCost = .moderate,
        progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        try directory.prepare(create: false)
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        guard !directory.isEncrypted else { throw .usage("the journal in \(directory.url.path) is encrypted already") }
        let source = try Journal(directory: directory, create: false)
        let dataKey = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        let keyFile = try JournalKeyFile.wrapping(dataKey, passphrase: passphrase, cost: cost)
        try source.checkNothingLost()
        return try source.stores.convert(
            to: StoreEncryption(key: dataKey), keyFile: keyFile, progress: progress, catchUp: Self.catchUp)
    }

    /// Decrypts the encrypted journal in `directory` back to plain text, all or nothing, as
    /// ``encrypt(_:passphrase:cost:progress:)`` encrypts one.
    @discardableResult
    public static func decrypt(
        _ directory: StoreDirectory, passphrase: Passphrase, progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        try directory.prepare(create: false)
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        guard directory.isEncrypted else { throw .usage("the journal in \(directory.url.path) is not encrypted") }
        let source = try Journal(directory: directory, create: false, passphrase: passphrase)
        try source.checkNothingLost()
        return try source.stores.convert(to: nil, keyFile: nil, progress: progress, catchUp: Self.catchUp)
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
        _ directory: StoreDirectory, passphrase: Passphrase, newPassphrase: Passphrase? = nil,
        cost: KeyDerivationCost? = nil,
        progress: ProgressHandler? = nil
    ) throws(JournalError) -> ConversionReport {
        try directory.prepare(create: false)
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        guard let current = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .usage("the journal in \(directory.url.path) is not encrypted")
        }
        let source = try Journal(directory: directory, create: false, passphrase: passphrase)
        let kept = try KeyDerivationCost(passes: current.derivation.passes, memoryBytes: current.derivation.memoryBytes)
        let dataKey = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        let keyFile = try JournalKeyFile.wrapping(dataKey, passphrase: newPassphrase ?? passphrase, cost: cost ?? kept)
        try source.checkNothingLost()
        return try source.stores.convert(
            to: StoreEncryption(key: dataKey), keyFile: keyFile, progress: progress, catchUp: Self.catchUp)
    }

    /// Changes an encrypted journal's passphrase from `old` to `new`, at `cost` (by default the
    /// one it has): the data key is wrapped anew, and no store is rewritten. A key file from
    /// before (a backup, a synced folder's history) still opens the journal with the old
    /// passphrase: ``rekey(_:passphrase:newPassphrase:cost:progress:)`` replaces the data key.
    public static func changePassphrase(
        of directory: StoreDirectory, from old: Passphrase, to new: Passphrase, cost: KeyDerivationCost? = nil
    ) throws(JournalError) {
        try directory.prepare(create: false)
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        guard let keyFile = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .usage("the journal in \(directory.url.path) is not encrypted")
        }
        let dataKey = try keyFile.unwrap(old)
        let kept = try KeyDerivationCost(passes: keyFile.derivation.passes, memoryBytes: keyFile.derivation.memoryBytes)
        let cost = cost ?? kept
        try JournalKeyFile.wrapping(dataKey, journal: keyFile.journal, passphrase: new, cost: cost).write(
            to: directory.keyFileURL)
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
}

extension Journal {
    /// Brings a converted copy's search store up to date, before it is checked.
    fileprivate static func catchUp(_ stores: JournalStores) throws(JournalError) {
        try SearchIndexer(main: stores.main, search: stores.search).catchUp()
    }
}
