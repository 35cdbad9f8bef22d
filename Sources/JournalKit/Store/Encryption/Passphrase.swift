import CSodium

#if canImport(Glibc)
    import Glibc
#endif

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

extension Passphrase {
    /// The longest passphrase read from a file, a command or the terminal, in bytes.
    package static let maximumBytes = 4_096

    /// The first line read from `descriptor` (up to a line break or the end), a byte at a time
    /// straight into guarded memory, so that no other copy of it is made anywhere. With
    /// `drainingRest`, what follows is read and dropped through a small buffer wiped after each
    /// read (a command's output, which would otherwise block on a full pipe). A line longer than
    /// ``maximumBytes`` is refused; an empty one too.
    package static func firstLine(of descriptor: Int32, drainingRest: Bool = false) throws(JournalError) -> Passphrase {
        let buffer = try GuardedBytes(count: maximumBytes + 1)
        var count = 0
        var ended = false
        while count <= maximumBytes {
            let read = Glibc.read(descriptor, buffer.mutableTyped + count, 1)
            if read < 0, errno == EINTR { continue }
            guard read == 1 else {
                ended = true
                break
            }
            let byte = buffer.mutableTyped[count]
            if byte == 0x0A || byte == 0x0D {
                buffer.mutableTyped[count] = 0
                break
            }
            count += 1
        }
        if count > maximumBytes { throw .usage("the passphrase is longer than \(maximumBytes) bytes") }
        if drainingRest, !ended {
            var rest = [UInt8](repeating: 0, count: 512)
            while true {
                let read = rest.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                sodium_memzero(&rest, rest.count)
                if read < 0, errno == EINTR { continue }
                if read <= 0 { break }
            }
        }
        return try Passphrase(bytes: UnsafeRawBufferPointer(start: buffer.pointer, count: count))
    }

    /// Whether `other` is the same bytes (compared in constant time).
    package func matches(_ other: Passphrase) -> Bool {
        bytes.count == other.bytes.count && sodium_memcmp(bytes.pointer, other.bytes.pointer, bytes.count) == 0
    }
}
