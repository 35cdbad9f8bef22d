import CSodium
import Crypto
import Foundation

/// Writes a file in age's format (age-encryption.org/v1) encrypted under a passphrase, as it
/// streams, so that an export of an encrypted journal need not lie on the disk in plain text:
/// `age -d` (or any age implementation) opens it with the same passphrase.
///
/// The construction is age's, over maintained primitives: a random 16-byte file key wrapped in
/// one scrypt stanza (libsodium's scrypt, N = 2^`workFactor`, r = 8, p = 1, its salt prefixed
/// with `age-encryption.org/v1/scrypt`, ChaCha20-Poly1305 with a zero nonce), the header's
/// HMAC-SHA-256 under HKDF-SHA-256(file key, "header"), then a 16-byte nonce and the payload in
/// 64 KiB chunks, each sealed with ChaCha20-Poly1305 under HKDF-SHA-256(file key, nonce,
/// "payload") and a nonce of the chunk's number and a last-chunk flag (swift-crypto).
public final class AgeWriter {
    private static let chunkBytes = 64 * 1024
    private let sink: (Data) throws(JournalError) -> Void
    private let payloadKey: SymmetricKey
    private var pending = Data()
    private var chunk: UInt64 = 0
    private var finished = false

    /// A writer handing the file's bytes to `sink` as they are ready, the file key wrapped
    /// under `passphrase` with scrypt's work factor 2^`workFactor` (age's default, 18).
    public init(
        passphrase: Passphrase, workFactor: Int = 18, sink: @escaping (Data) throws(JournalError) -> Void
    ) throws(JournalError) {
        guard (10...22).contains(workFactor) else {
            throw .usage("scrypt's work factor must be 10 to 22, not \(workFactor)")
        }
        self.sink = sink
        let fileKey = SymmetricKey(size: .bits128)
        var salt = [UInt8](repeating: 0, count: 16)
        randombytes_buf(&salt, salt.count)
        var wrapKey = [UInt8](repeating: 0, count: 32)
        defer { sodium_memzero(&wrapKey, wrapKey.count) }
        let scryptSalt = Array("age-encryption.org/v1/scrypt".utf8) + salt
        let derived = crypto_pwhash_scryptsalsa208sha256_ll(
            passphrase.bytes.typed, passphrase.bytes.count, scryptSalt, scryptSalt.count, 1 << UInt64(workFactor), 8, 1,
            &wrapKey, 32)
        guard derived == 0 else {
            throw .store("cannot derive the export's key: scrypt needs \((128 << workFactor) >> 20) MiB of memory")
        }
        let wrapped: Data
        do {
            let box = try fileKey.withUnsafeBytes { key in
                try ChaChaPoly.seal(
                    Data(key), using: SymmetricKey(data: wrapKey), nonce: ChaChaPoly.Nonce(data: Data(count: 12)))
            }
            wrapped = box.ciphertext + box.tag
        } catch {
            throw .store("cannot wrap the export's key: \(error)")
        }
        var header =
            "age-encryption.org/v1\n-> scrypt \(Self.base64(Data(salt))) \(workFactor)\n\(Self.base64(wrapped))\n---"
        let macKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, info: Data("header".utf8), outputByteCount: 32)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(header.utf8), using: macKey)
        header += " \(Self.base64(Data(mac)))\n"
        var nonce = Data(count: 16)
        nonce.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, 16) }
        payloadKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: fileKey, salt: nonce, info: Data("payload".utf8), outputByteCount: 32)
        try sink(Data(header.utf8) + nonce)
    }

    /// Adds `data` to the file's content.
    public func write(_ data: Data) throws(JournalError) {
        pending.append(data)
        // A full chunk is sealed only once more follows: the last one carries the final flag.
        while pending.count > Self.chunkBytes {
            try seal(pending.prefix(Self.chunkBytes), last: false)
            pending.removeFirst(Self.chunkBytes)
        }
    }

    /// Seals the last chunk; the file is complete once this returns.
    public func finish() throws(JournalError) {
        guard !finished else { return }
        finished = true
        try seal(pending, last: true)
        pending = Data()
    }

    private func seal(_ content: Data, last: Bool) throws(JournalError) {
        var nonce = Data(count: 12)
        for index in 0..<8 { nonce[10 - index] = UInt8(truncatingIfNeeded: chunk >> (8 * UInt64(index))) }
        nonce[11] = last ? 1 : 0
        chunk += 1
        do {
            let box = try ChaChaPoly.seal(content, using: payloadKey, nonce: ChaChaPoly.Nonce(data: nonce))
            try sink(box.ciphertext + box.tag)
        } catch let error as JournalError {
            throw error
        } catch {
            throw .store("cannot encrypt the export: \(error)")
        }
    }

    /// Base64 without padding, as age writes it.
    private static func base64(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "=", with: "")
    }
}
