import CSodium

/// How much work Argon2id (libsodium's `crypto_pwhash`, version 1.3) puts between a guessed
/// passphrase and the key it would unwrap: passes over a block of memory of this size. Stored
/// in the key file, so a journal always opens with the cost it was given.
public struct KeyDerivationCost: Sendable, Equatable, Codable {
    /// Passes over the memory (Argon2's `t`).
    public let passes: Int
    /// Bytes of memory each derivation fills (Argon2's `m`, in bytes).
    public let memoryBytes: Int

    /// A cost of `passes` over `memoryBytes`, within what libsodium accepts.
    public init(passes: Int, memoryBytes: Int) throws(JournalError) {
        guard passes >= Int(crypto_pwhash_argon2id_opslimit_min()),
            memoryBytes >= Int(crypto_pwhash_argon2id_memlimit_min()),
            passes <= 64, memoryBytes <= 1 << 34
        else { throw .usage("an Argon2id cost of \(passes) passes over \(memoryBytes) bytes is out of range") }
        self.passes = passes
        self.memoryBytes = memoryBytes
    }

    private init(unchecked passes: Int, _ memoryBytes: Int) {
        self.passes = passes
        self.memoryBytes = memoryBytes
    }

    /// libsodium's "moderate" level, the default: 3 passes over 256 MiB (what it takes is in the
    /// benchmark's encryption rows).
    public static let moderate = KeyDerivationCost(
        unchecked: Int(crypto_pwhash_argon2id_opslimit_moderate()), Int(crypto_pwhash_argon2id_memlimit_moderate()))
    /// libsodium's "interactive" level: 2 passes over 64 MiB, for machines short of memory.
    public static let interactive = KeyDerivationCost(
        unchecked: Int(crypto_pwhash_argon2id_opslimit_interactive()),
        Int(crypto_pwhash_argon2id_memlimit_interactive()))
    /// libsodium's "sensitive" level: 4 passes over 1 GiB.
    public static let sensitive = KeyDerivationCost(
        unchecked: Int(crypto_pwhash_argon2id_opslimit_sensitive()), Int(crypto_pwhash_argon2id_memlimit_sensitive()))
}
