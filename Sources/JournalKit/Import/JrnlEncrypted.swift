import Crypto
import Foundation
import _CryptoExtras

/// jrnl's encrypted journal files, decrypted with their password into jrnl's plain text
/// (``JrnlText``), with swift-crypto's primitives.
///
/// jrnl 4.6 reads three formats and writes the last:
/// - version 2, a Fernet token (`gAAAAA…`) whose key is PBKDF2-HMAC-SHA256 of the password over
///   100,000 rounds with one salt fixed for every journal;
/// - version 3, `JRNLv3`, a 2-byte big-endian length, a header (JSON, base64 or not) holding
///   the journal's own salt, then the Fernet token, its key derived the same way;
/// - version 1, raw AES-CBC under SHA-256 of the password, which has no mark to tell it by and
///   which this reader does not take.
///
/// A Fernet token is base64url of: `0x80`, an 8-byte time, a 16-byte IV, the AES-128-CBC
/// ciphertext (PKCS #7 padded), and an HMAC-SHA256 of everything before it; the derived key's
/// first half signs, its second half encrypts.
enum JrnlEncrypted {
    private static let versionThree = Array("JRNLv3".utf8)
    private static let fernet = Array("gAAAAA".utf8)
    /// The salt jrnl's version 2 uses for every journal.
    private static let versionTwoSalt: [UInt8] = [
        0xF2, 0xD5, 0x71, 0x0E, 0xC1, 0x8D, 0x2E, 0xDE, 0xDC, 0x8E, 0x36, 0x74, 0x89, 0x04, 0xCE, 0xF8,
    ]

    /// Whether `prefix`, a file's first bytes, is an encrypted jrnl journal's.
    static func isEncrypted(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: versionThree) || prefix.starts(with: fernet)
    }

    /// The plain text of the encrypted jrnl journal `data` (from `file`, for messages).
    static func decrypt(_ data: Data, password: Passphrase, file: String) throws(JournalError) -> Data {
        let bytes = [UInt8](data)
        let salt: [UInt8]
        let token: ArraySlice<UInt8>
        if bytes.starts(with: versionThree) {
            (salt, token) = try versionThreeParts(bytes, file: file)
        } else if bytes.starts(with: fernet) {
            (salt, token) = (versionTwoSalt, bytes[...])
        } else {
            throw .invalidInput("\(file) is not an encrypted jrnl journal (version 2 or 3)", file: file)
        }
        let key: SymmetricKey
        do {
            key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password.bytes.buffer, salt: salt, using: .sha256, outputByteCount: 32,
                unsafeUncheckedRounds: 100_000)
        } catch {
            throw .store("cannot derive the jrnl journal's key: \(error)")
        }
        return try openFernet(token, key: key, file: file)
    }

    /// The salt in a version 3 header and the token after it.
    private static func versionThreeParts(
        _ bytes: [UInt8], file: String
    ) throws(JournalError) -> ([UInt8], ArraySlice<UInt8>) {
        let damaged = JournalError.invalidInput("\(file): its jrnl encryption header is damaged", file: file)
        let start = versionThree.count
        guard bytes.count >= start + 2 else { throw damaged }
        let length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
        guard bytes.count >= start + 2 + length else { throw damaged }
        let field = Data(bytes[(start + 2)..<(start + 2 + length)])
        // jrnl writes the JSON base64-encoded; journals from before that hold it as it is.
        let json =
            Data(base64Encoded: field).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            ?? (try? JSONSerialization.jsonObject(with: field))
        guard let header = json as? [String: Any], let text = header["salt"] as? String,
            let salt = base64URLDecoded(text)
        else {
            throw damaged
        }
        return ([UInt8](salt), bytes[(start + 2 + length)...])
    }

    /// The plain text of a Fernet token, or `wrongPassphrase` when its HMAC doesn't match.
    private static func openFernet(
        _ text: ArraySlice<UInt8>, key: SymmetricKey, file: String
    ) throws(JournalError) -> Data {
        let damaged = JournalError.invalidInput("\(file): its jrnl encrypted content is damaged", file: file)
        let trimmed = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token = base64URLDecoded(trimmed).map([UInt8].init), token.count >= 1 + 8 + 16 + 16 + 32,
            token[0] == 0x80
        else {
            throw damaged
        }
        let (signing, encrypting) = key.withUnsafeBytes { key in
            (SymmetricKey(data: Data(key.prefix(16))), SymmetricKey(data: Data(key.suffix(16))))
        }
        let signed = token.prefix(token.count - 32)
        guard HMAC<SHA256>.isValidAuthenticationCode(token.suffix(32), authenticating: signed, using: signing) else {
            throw JournalError(.wrongPassphrase, "wrong password for the jrnl journal \(file)", file: file)
        }
        do {
            let iv = try AES._CBC.IV(ivBytes: token[9..<25])
            return try AES._CBC.decrypt(token[25..<(token.count - 32)], using: encrypting, iv: iv)
        } catch {
            throw damaged
        }
    }

    /// Base64url, with or without its padding.
    private static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
