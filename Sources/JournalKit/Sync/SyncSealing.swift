import CSodium
import Foundation

/// How an encrypted journal's versions are sealed in the folder: each line XChaCha20-Poly1305
/// (libsodium's) under its device's key, with a nonce of its own, bound to where it stands.
///
/// A device's key (32 random bytes) is drawn at its first sync and kept beside its files
/// (`journal-sync/<device>/device.key`), wrapped under the journal's passphrase as a journal's
/// data key is (``JournalKeyFile``: Argon2id, the journal's cost); a journal with the same
/// passphrase unwraps it the first time it reads that device, and keeps it in its own encrypted
/// store after. A key of each device's own, never one shared file, so that two journals made
/// apart never write one file.
///
/// Invariant: a line's associated data is the format, the device, the file (its number, and what
/// it is: records, a snapshot, what the device took in) and the line's number: a line changed,
/// moved to another line, file or device, or sealed under another key fails to open, and
/// nothing of it is taken.
struct SyncSealing {
    let key: GuardedBytes

    static let format = "journal-sync-1"
    private static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    private static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())

    private static func associatedData(device: UUID, file: String, line: Int) -> Data {
        Data("\(format)|\(device.uuidString)|\(file)|\(line)".utf8)
    }

    /// `plain` sealed as line `line` of `device`'s file `file` (``SyncFolder/File/sealedName``):
    /// base64, no newline.
    func seal(_ plain: Data, device: UUID, file: String, line: Int) -> Data {
        var sealed = Data(count: Self.nonceBytes + plain.count + Self.tagBytes)
        let associated = Self.associatedData(device: device, file: file, line: line)
        sealed.withUnsafeMutableBytes { out in
            let base = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            randombytes_buf(base, Self.nonceBytes)
            plain.withUnsafeBytes { message in
                associated.withUnsafeBytes { ad in
                    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                        base + Self.nonceBytes, nil, message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        UInt64(plain.count), ad.baseAddress, UInt64(ad.count), nil, base, key.typed)
                }
            }
        }
        return sealed.base64EncodedData()
    }

    /// The plain bytes of line `line` of `device`'s file `file`; nil when it does not open.
    func open(_ line: some DataProtocol, device: UUID, file: String, number: Int) -> Data? {
        guard let sealed = Data(base64Encoded: Data(line)), sealed.count >= Self.nonceBytes + Self.tagBytes else {
            return nil
        }
        var plain = Data(count: sealed.count - Self.nonceBytes - Self.tagBytes)
        let associated = Self.associatedData(device: device, file: file, line: number)
        let opened = plain.withUnsafeMutableBytes { out in
            sealed.withUnsafeBytes { input in
                associated.withUnsafeBytes { ad in
                    let base = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    return crypto_aead_xchacha20poly1305_ietf_decrypt(
                        out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, base + Self.nonceBytes,
                        UInt64(sealed.count - Self.nonceBytes), ad.baseAddress, UInt64(ad.count), base, key.typed)
                }
            }
        }
        return opened == 0 ? plain : nil
    }
}
