import Foundation
import Testing

@testable import JournalKit

/// Converting a journal whole (`Journal+Encryption`): re-encrypting under a new key, and what
/// a conversion keeps of the folder.
@Suite struct JournalConversionTests {
    /// After `rekey`, a key file from before, with the passphrase it was wrapped under, opens
    /// none of the journal's files: its key unwraps, and every store refuses it.
    @Test func rekeyLeavesNoFileThatTheOldKeyOpens() throws {
        let journal = try TemporaryJournal(passphrase: "the old one")
        try journal.importTexts((0..<1_500).map { "entry \($0) mentions zorblax\($0) and the rekeyed archive" })
        journal.close()
        let oldPassphrase = try #require(journal.passphrase)
        let oldKeyFile = try Data(contentsOf: journal.directory.keyFileURL)
        let oldKey = try #require(try JournalKeyFile.read(at: journal.directory.keyFileURL)).unwrap(oldPassphrase)
        let new = try Passphrase("the new one")
        let report = try Journal.rekey(journal.directory, passphrase: oldPassphrase, newPassphrase: new)
        #expect(report.leftOver == nil && report.otherFiles.isEmpty)

        // The journal opens with the new passphrase, whole.
        let reopened = try Journal(directory: journal.directory, create: false, passphrase: new)
        #expect(try reopened.list(PageRequest(limit: 0)).total == 1_500)
        #expect(try reopened.search("zorblax14", page: PageRequest(limit: 0)).total == 111)
        #expect(try reopened.verify().isConsistent)
        try reopened.close()
        let newKey = try #require(try JournalKeyFile.read(at: journal.directory.keyFileURL)).unwrap(new)
        #expect(Array(newKey.buffer) != Array(oldKey.buffer))

        // The old key file put back, with the old passphrase: the key unwraps, no store opens.
        let newKeyFile = try Data(contentsOf: journal.directory.keyFileURL)
        try oldKeyFile.write(to: journal.directory.keyFileURL)
        let refused = #expect(throws: JournalError.self) {
            try Journal(directory: journal.directory, create: false, passphrase: oldPassphrase)
        }
        #expect(refused?.kind == .store, "\(refused?.message ?? "")")
        let old = try StoreEncryption(key: oldKey)
        #expect(throws: JournalError.self) {
            try MainStore(url: journal.directory.mainStoreURL, encryption: old, readOnly: true)
        }
        #expect(throws: JournalError.self) {
            try SearchStore(url: journal.directory.searchStoreURL, mainStoreID: UUID(), encryption: old, readOnly: true)
        }
        // Nor the prefix table's file, written anew under the new key: its first chunk opens
        // with the new key's sealing and not with the old one's.
        try newKeyFile.write(to: journal.directory.keyFileURL)
        let current = try Journal(directory: journal.directory, create: false, passphrase: new)
        defer { try? current.close() }
        let tag = try #require(try current.search.pool.read { db in try PrefixSnapshot.record(in: db)?.tag })
        let stored = try Data(contentsOf: PrefixSnapshot.fileURL(besides: journal.directory.searchStoreURL))
        func opens(_ sealing: ChunkSealing) -> Bool {
            var content = [UInt8](repeating: 0, count: ChunkSealing.contentBytes)
            return stored.withUnsafeBytes { bytes in
                content.withUnsafeMutableBytes { out in
                    sealing.open(bytes.baseAddress!, index: 0, tag: tag, into: out.baseAddress!)
                }
            }
        }
        #expect(opens(try StoreEncryption(key: newKey).sealing(.prefixTableFile)))
        #expect(!opens(try old.sealing(.prefixTableFile)))
    }

    /// Files of the folder that are not the journal's stay through a conversion, and the
    /// report names them: encrypting the journal does not encrypt them.
    @Test func aConversionKeepsAndNamesTheFolderOtherFiles() throws {
        let journal = try TemporaryJournal()
        try journal.importTexts(["an entry beside a backup"])
        journal.close()
        let backup = journal.directory.url.appendingPathComponent("backup.jsonl")
        try Data("{\"text\": \"plain\"}".utf8).write(to: backup)
        let report = try Journal.encrypt(journal.directory, passphrase: Passphrase("beside"), cost: .cheapestForTests)
        #expect(report.otherFiles == ["backup.jsonl"])
        #expect(report.leftOver == nil)
        #expect(try Data(contentsOf: backup) == Data("{\"text\": \"plain\"}".utf8))
    }
}
