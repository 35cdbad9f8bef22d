import CSodium

/// Bytes in libsodium's guarded memory: locked in RAM (never swapped out), excluded from core
/// dumps, between guard pages, and wiped when released. Keys and passphrases live only here.
final class GuardedBytes: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let count: Int

    /// `count` bytes, zeroed.
    init(count: Int) throws(JournalError) {
        guard sodium_init() >= 0, let pointer = sodium_malloc(count) else {
            throw .store("cannot set aside guarded memory for a key (libsodium)")
        }
        sodium_memzero(pointer, count)
        self.pointer = pointer
        self.count = count
    }

    /// A copy of `bytes`.
    convenience init(copying bytes: UnsafeRawBufferPointer) throws(JournalError) {
        try self.init(count: bytes.count)
        if let base = bytes.baseAddress { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    /// `count` random bytes from the system's generator.
    static func random(count: Int) throws(JournalError) -> GuardedBytes {
        let bytes = try GuardedBytes(count: count)
        randombytes_buf(bytes.pointer, count)
        return bytes
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }
    var typed: UnsafePointer<UInt8> { UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self)) }
    var mutableTyped: UnsafeMutablePointer<UInt8> { pointer.assumingMemoryBound(to: UInt8.self) }

    deinit { sodium_free(pointer) }
}
