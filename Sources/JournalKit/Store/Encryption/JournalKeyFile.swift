import CSodium
import Foundation

/// `journal.key`: the data key of an encrypted journal, wrapped under its passphrase.
///
/// The data key (32 random bytes) encrypts every store; the key file holds it encrypted with
/// XChaCha20-Poly1305 under a key Argon2id derives from the passphrase, a salt drawn for this
/// journal and the cost stored beside it. The format, the journal's identity, the cost and the
/// salt are the associated data: a key file whose cost was lowered or whose salt was swapped
/// fails to unwrap, as a wrong passphrase does. Changing the passphrase writes a new key file
/// around the same data key, and no store is rewritten.
///
/// Invariant: the file is replaced whole (``ReplacementFile``); the data key exists unwrapped
/// only in guarded memory (``GuardedBytes``).
struct JournalKeyFile: Codable, Equatable {
    static let currentFormat = "journal-key-1"
    static let argon2id = "argon2id13"
    private static let saltBytes = Int(crypto_pwhash_argon2id_saltbytes())
    private static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    private static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
    static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())

    struct Derivation: Codable, Equatable {
        var algorithm: String
        var passes: Int
        var memoryBytes: Int
        var salt: Data
    }

    var format: String
    /// Drawn when the journal was encrypted; bound to the wrapped key.
    var journal: UUID
    var derivation: Derivation
    /// Nonce, then the encrypted data key and its tag.
    var wrappedKey: Data

    /// A key file wrapping `dataKey` under `passphrase` at `cost`, for the journal `journal`.
    static func wrapping(
        _ dataKey: GuardedBytes, journal: UUID = UUID(), passphrase: Passphrase, cost: KeyDerivationCost
    ) throws(JournalError) -> JournalKeyFile {
        var salt = Data(count: saltBytes)
        salt.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, saltBytes) }
        var file = JournalKeyFile(
            format: currentFormat, journal: journal,
            derivation: Derivation(algorithm: argon2id, passes: cost.passes, memoryBytes: cost.memoryBytes, salt: salt),
            wrappedKey: Data())
        let wrapping = try file.wrappingKey(passphrase)
        var sealed = Data(count: nonceBytes + keyBytes + tagBytes)
        let associated = file.associatedData
        sealed.withUnsafeMutableBytes { out in
            let base = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            randombytes_buf(base, nonceBytes)
            associated.withUnsafeBytes { ad in
                _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                    base + nonceBytes, nil, dataKey.typed, UInt64(keyBytes), ad.baseAddress, UInt64(ad.count), nil,
                    base,
                    wrapping.typed)
            }
        }
        file.wrappedKey = sealed
        return file
    }

    /// The data key, or `wrongPassphrase` when `passphrase` doesn't unwrap it.
    func unwrap(_ passphrase: Passphrase) throws(JournalError) -> GuardedBytes {
        let wrapping = try wrappingKey(passphrase)
        let key = try GuardedBytes(count: Self.keyBytes)
        let associated = associatedData
        let opened = wrappedKey.withUnsafeBytes { sealed in
            associated.withUnsafeBytes { ad in
                let base = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return crypto_aead_xchacha20poly1305_ietf_decrypt(
                    key.mutableTyped, nil, nil, base + Self.nonceBytes, UInt64(sealed.count - Self.nonceBytes),
                    ad.baseAddress,
                    UInt64(ad.count), base, wrapping.typed)
            }
        }
        guard opened == 0 else { throw JournalError(.wrongPassphrase, "wrong passphrase for this journal") }
        return key
    }

    /// The key Argon2id derives from `passphrase` with this file's salt and cost.
    private func wrappingKey(_ passphrase: Passphrase) throws(JournalError) -> GuardedBytes {
        let key = try GuardedBytes(count: Self.keyBytes)
        let derived = derivation.salt.withUnsafeBytes { salt in
            crypto_pwhash(
                key.mutableTyped, UInt64(Self.keyBytes), passphrase.bytes.pointer.assumingMemoryBound(to: CChar.self),
                UInt64(passphrase.bytes.count), salt.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt64(derivation.passes), derivation.memoryBytes, crypto_pwhash_alg_argon2id13())
        }
        guard derived == 0 else {
            throw .store(
                "cannot derive the journal's key: Argon2id needs \(derivation.memoryBytes >> 20) MiB of memory")
        }
        return key
    }

    /// What the wrapped key is bound to: everything in the file but the wrapped key itself.
    private var associatedData: Data {
        Data(
            "\(format)|\(journal.uuidString)|\(derivation.algorithm)|\(derivation.passes)|\(derivation.memoryBytes)|\(derivation.salt.base64EncodedString())"
                .utf8)
    }

    /// The key file at `url`, nil when there is none.
    static func read(at url: URL) throws(JournalError) -> JournalKeyFile? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        } catch {
            throw .store("cannot read \(url.path): \(error.localizedDescription)", file: url.path)
        }
        guard let file = try? JSONDecoder().decode(JournalKeyFile.self, from: data) else {
            throw .store("\(url.path) is damaged: it is not a journal key file", file: url.path)
        }
        guard file.format == currentFormat else {
            throw .store(
                "\(url.path) is a key file of a format this version does not read (\(file.format))", file: url.path)
        }
        guard file.derivation.algorithm == argon2id, file.derivation.salt.count == saltBytes,
            file.wrappedKey.count == nonceBytes + keyBytes + tagBytes,
            (try? KeyDerivationCost(passes: file.derivation.passes, memoryBytes: file.derivation.memoryBytes)) != nil
        else { throw .store("\(url.path) is damaged: its key derivation or wrapped key is malformed", file: url.path) }
        return file
    }

    /// Writes the key file at `url`, replacing any there, durably.
    func write(to url: URL) throws(JournalError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw .store("cannot encode the key file: \(error)") }
        let file = try ReplacementFile(replacing: url)
        try file.write(data + Data("\n".utf8))
        try file.commit()
    }
}
