import Foundation
import JournalKit

/// What must hold when an encrypted journal's store is altered by arbitrary bytes, as the fuzz
/// target and its regression tests check it: the journal opens and reads every entry exactly
/// as written, or refuses with an error; it never reads altered bytes as entries, nor crashes.
///
/// An input is a page number (its first byte, modulo the store's pages) and the bytes written
/// over that page from its start (the rest of the input, at most a page); the journal is a
/// fixed one of a few hundred entries, encrypted at Argon2id's least cost.
package enum EncryptedPageChecks {
    private static let passphrase = "fuzzing pages"
    private static let pageBytes = 4096

    /// The encrypted journal's main store and key file as written, and its entries' texts.
    private static let fixture: (store: Data, keyFile: Data, texts: [String])? = {
        let folder = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-fuzz-pages-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: folder.url) }
        do {
            let cost = try KeyDerivationCost(passes: 1, memoryBytes: 8192)
            let journal = try Journal.create(in: folder, passphrase: Passphrase(passphrase), cost: cost)
            for index in 0..<300 {
                let date = JournalDate(microseconds: Int64(index) * 1_000_000)
                try journal.add(NewEntry(date: date, text: "entry \(index) of the fuzzed journal"))
            }
            let texts = try journal.list(PageRequest(limit: 0)).entries.map(\.text)
            try journal.close()
            return (try Data(contentsOf: folder.mainStoreURL), try Data(contentsOf: folder.keyFileURL), texts)
        } catch {
            return nil
        }
    }()

    package static func problems(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        guard let fixture else { return ["the encrypted journal to alter could not be made"] }
        guard let page = bytes.first else { return [] }
        let start = Int(page) % (fixture.store.count / pageBytes) * pageBytes
        let replacement = bytes.dropFirst().prefix(pageBytes)
        var store = fixture.store
        store.replaceSubrange(start..<(start + replacement.count), with: replacement)
        let folder = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-fuzz-page-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: folder.url) }
        do {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            try store.write(to: folder.mainStoreURL)
            try fixture.keyFile.write(to: folder.keyFileURL)
        } catch {
            return ["cannot write the altered journal: \(error)"]
        }
        let texts: [String]
        do {
            let journal = try Journal(directory: folder, create: false, passphrase: Passphrase(passphrase))
            defer { try? journal.close() }
            texts = try journal.list(PageRequest(limit: 0)).entries.map(\.text)
        } catch {
            return store == fixture.store ? ["the unaltered journal was refused: \(error.message)"] : []
        }
        return texts == fixture.texts
            ? [] : ["an altered store was read as other entries (\(texts.count) of \(fixture.texts.count))"]
    }
}
