import Foundation
import JournalKit

/// What encryption at rest costs one journal: the same input imported into an encrypted journal
/// beside the plain one, and the same searches on both, warm in this process and cold as whole
/// `journal search` processes.
///
/// The key derivation (Argon2id at the default cost) is timed on its own: a cold search of an
/// encrypted journal pays it once per process. The comparison leaves it out by giving the
/// measured journal Argon2id's least cost (one pass over 8 KiB), which
/// nothing else in its files or searches depends on.
public struct EncryptionCost: Sendable {
    /// A whole `journal import` process into the plain journal.
    public let plainImportSeconds: Double
    /// The same into an encrypted one.
    public let encryptedImportSeconds: Double
    /// Bytes of the plain journal's files.
    public let plainBytes: Int
    /// Bytes of the encrypted journal's files.
    public let encryptedBytes: Int
    /// Each query's median over the warm runs on the plain journal, summarized.
    public let plainWarm: LatencySummary
    /// The same on the encrypted journal.
    public let encryptedWarm: LatencySummary
    /// The median over the queries of each query's median whole `journal search` process on
    /// the plain journal.
    public let plainCold: Double
    /// The same on the encrypted journal, its key derivation left out (see above).
    public let encryptedCold: Double
    /// One key derivation, as the encrypted journal opens.
    public let keyDerivationSeconds: Double
    /// The cost the key derivation was timed at: the default one.
    public let cost: KeyDerivationCost

    /// The passphrase the benchmark's encrypted journals are created with, from a file beside
    /// them (never a secret: they hold synthetic text).
    static let passphrase = "journal bench passphrase"

    /// Imports `input` into a new encrypted journal at `store`, and times it against the plain
    /// `plainJournal` (at `plainStore`, imported in `plainImportSeconds`) on `queries`.
    static func measure(
        input: URL, store: URL, plainJournal: Journal, plainStore: URL, plainImportSeconds: Double, queries: [String],
        runs: Int,
        coldRuns: Int, executable: String, progress: (String) -> Void
    ) throws -> EncryptionCost {
        try? FileManager.default.removeItem(at: store)
        let passphraseFile = store.deletingLastPathComponent().appendingPathComponent(
            store.lastPathComponent + ".passphrase")
        try Data((passphrase + "\n").utf8).write(to: passphraseFile)
        defer { try? FileManager.default.removeItem(at: passphraseFile) }
        let environment = ["JOURNAL_PASSPHRASE_FILE": passphraseFile.path]

        progress("an encrypted journal: journal import (a separate process)…")
        let least = try KeyDerivationCost(passes: 1, memoryBytes: 8192)
        try Journal.create(in: StoreDirectory(store), passphrase: Passphrase(passphrase), cost: least).close()
        let imported = try ChildProcess.run(
            executable, ["--store", store.path, "import", input.path], environment: environment)
        guard imported.status == 0 else {
            throw JournalError(
                .store, "journal import into an encrypted journal failed (exit status \(imported.status))")
        }

        progress("an encrypted journal: the key derivation, warm searches…")
        let journal = try Journal(directory: StoreDirectory(store), create: false, passphrase: Passphrase(passphrase))
        defer { try? journal.close() }
        let (keyDerivationSeconds, cost) = try Self.timeKeyDerivation()

        func warm(_ journal: Journal) throws -> LatencySummary {
            LatencySummary(
                try queries.map { query in
                    _ = try journal.search(query, strategy: SearchStrategies[.prefix], page: PageRequest(limit: 20))
                    let times = try (0..<runs).map { _ in
                        let start = ContinuousClock.now
                        _ = try journal.search(query, strategy: SearchStrategies[.prefix], page: PageRequest(limit: 20))
                        return secondsSince(start)
                    }
                    return LatencySummary(times).median
                })
        }
        let plainWarm = try warm(plainJournal)
        let encryptedWarm = try warm(journal)

        progress("an encrypted journal: cold processes…")
        func cold(_ store: URL) throws -> Double {
            LatencySummary(
                try queries.map { query in
                    let times = try (0..<coldRuns).map { _ in
                        let outcome = try ChildProcess.run(
                            executable, ["--store", store.path, "search", query, "--limit", "20", "--json"],
                            environment: environment)
                        guard outcome.status == 0 else {
                            throw JournalError(.store, "journal search \(query) failed (exit status \(outcome.status))")
                        }
                        return outcome.seconds
                    }
                    return LatencySummary(times).median
                }
            ).median
        }
        let plainCold = try cold(plainStore)
        let encryptedCold = try cold(store)
        return EncryptionCost(
            plainImportSeconds: plainImportSeconds, encryptedImportSeconds: imported.seconds,
            plainBytes: Self.bytes(of: plainStore), encryptedBytes: Self.bytes(of: store), plainWarm: plainWarm,
            encryptedWarm: encryptedWarm,
            plainCold: plainCold, encryptedCold: encryptedCold, keyDerivationSeconds: keyDerivationSeconds, cost: cost)
    }

    /// One key derivation at the default cost, in a journal made for it and removed after.
    private static func timeKeyDerivation() throws -> (seconds: Double, cost: KeyDerivationCost) {
        let folder = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-bench-kdf-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let cost = KeyDerivationCost.moderate
        try Journal.create(in: folder, passphrase: Passphrase(passphrase), cost: cost).close()
        let start = ContinuousClock.now
        try Journal.checkPassphrase(Passphrase(passphrase), for: folder)
        return (secondsSince(start), cost)
    }

    /// The bytes of the journal's own files in the folder (the benchmark keeps others there).
    private static func bytes(of folder: URL) -> Int {
        let directory = StoreDirectory(folder)
        let own = [directory.mainStoreURL, directory.searchStoreURL, directory.keyFileURL].map(\.lastPathComponent)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
            own.contains { name.hasPrefix($0) }
        }
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }
}
