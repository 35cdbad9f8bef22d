import CSodium

/// The passphrase of an encrypted journal, held in guarded memory (locked in RAM, left out of
/// core dumps, wiped when released) for as long as the caller keeps it.
///
/// The library never asks for a passphrase: its caller reads one (the `journal` command from
/// the terminal, a file or a command) and hands it over. Its bytes are the UTF-8 of what was
/// typed, used as they are: no normalization, no trimming.
public final class Passphrase: @unchecked Sendable {
    let bytes: GuardedBytes

    private init(guarded bytes: GuardedBytes) { self.bytes = bytes }

    /// A passphrase of these UTF-8 bytes; the caller should wipe its own copy.
    public convenience init(bytes: UnsafeRawBufferPointer) throws(JournalError) {
        guard !bytes.isEmpty else { throw .usage("the passphrase is empty") }
        self.init(guarded: try GuardedBytes(copying: bytes))
    }

    /// A passphrase of `text`'s UTF-8 bytes. (A Swift string can't be wiped: prefer
    /// ``init(bytes:)`` where the text comes from outside.)
    public convenience init(_ text: String) throws(JournalError) {
        var utf8 = Array(text.utf8)
        defer { sodium_memzero(&utf8, utf8.count) }
        guard !utf8.isEmpty else { throw .usage("the passphrase is empty") }
        let guarded = utf8.withUnsafeBytes { buffer in
            Result { () throws(JournalError) in try GuardedBytes(copying: buffer) }
        }
        self.init(guarded: try guarded.get())
    }
}
