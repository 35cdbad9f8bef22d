import Crypto
import Foundation

/// The SHA-256 digests an import records of its input (``ImportPosition``), so that an import
/// run again after a kill goes on only with the same input.
enum InputDigest {
    /// The digest in lowercase hexadecimal.
    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of `data`.
    static func of(_ data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// The digest of the file at `path`, read a megabyte at a time.
    static func ofFile(atPath path: String) throws(JournalError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .invalidInput("cannot read \(path)", file: path)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw .invalidInput("cannot read \(path): \(error.localizedDescription)", file: path)
        }
        return hex(hasher.finalize())
    }
}
