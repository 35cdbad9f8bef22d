import CSodium
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the journal writes itself (the prefix table's), encrypted as SQLite's pages are: in
/// chunks of 4096 bytes, each 4056 bytes of content encrypted with XChaCha20-Poly1305 followed
/// by its nonce and tag, so that a reader decrypts only the chunks it reads.
///
/// Invariant: a chunk's associated data is the file's kind, the tag its reader expects and the
/// chunk's index, so a chunk moved, taken from another file or another save, or altered fails
/// to authenticate; the reader compares the file's size with the one its first chunk declares,
/// so a file cut short is refused.
struct ChunkSealing: @unchecked Sendable {
    static let chunkBytes = 4096
    static let contentBytes = chunkBytes - nonceBytes - tagBytes
    private static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    private static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())

    /// The file's own key, derived from the journal's data key.
    let key: GuardedBytes

    /// The stored size of `contentBytes` of content.
    static func storedBytes(ofContent count: Int) -> Int { (count + contentBytes - 1) / contentBytes * chunkBytes }

    private static func associatedData(tag: UUID, index: Int) -> [UInt8] {
        var data = Array("jrnlchk1".utf8)
        tag.withBytes { data.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(index).littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// Chunk `index` of a file tagged `tag`: `content` (at most ``contentBytes``, padded with
    /// zeros) encrypted, then its nonce and tag.
    func seal(_ content: UnsafeRawBufferPointer, index: Int, tag: UUID) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        chunk.withUnsafeMutableBytes { out in
            if let base = content.baseAddress { out.baseAddress!.copyMemory(from: base, byteCount: content.count) }
            let bytes = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let nonce = bytes + Self.contentBytes
            randombytes_buf(nonce, Self.nonceBytes)
            let ad = Self.associatedData(tag: tag, index: index)
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                bytes, nonce + Self.nonceBytes, nil, bytes, UInt64(Self.contentBytes), ad, UInt64(ad.count), nil, nonce,
                key.typed)
        }
        return chunk
    }

    /// The content of chunk `index` (``chunkBytes`` at `stored`) into `content`
    /// (``contentBytes``); false when it fails to authenticate.
    func open(_ stored: UnsafeRawPointer, index: Int, tag: UUID, into content: UnsafeMutableRawPointer) -> Bool {
        let bytes = stored.assumingMemoryBound(to: UInt8.self)
        let ad = Self.associatedData(tag: tag, index: index)
        return crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
            content.assumingMemoryBound(to: UInt8.self), nil, bytes, UInt64(Self.contentBytes),
            bytes + Self.contentBytes + Self.nonceBytes,
            ad, UInt64(ad.count), bytes + Self.contentBytes, key.typed) == 0
    }
}

/// Reads the content of a sealed file mapped into memory, a chunk decrypted when first read.
final class SealedChunkReader {
    private let sealing: ChunkSealing
    private let tag: UUID
    private let stored: UnsafeRawPointer
    private let storedCount: Int
    private var decrypted: [Int: UnsafeMutableRawPointer] = [:]
    private var scratch: UnsafeMutableRawPointer?
    private var scratchCount = 0
    /// Whether a chunk failed to authenticate: the file is damaged, and answers nothing more.
    private(set) var isDamaged = false

    init(sealing: ChunkSealing, tag: UUID, stored: UnsafeRawPointer, count: Int) {
        self.sealing = sealing
        self.tag = tag
        self.stored = stored
        storedCount = count
    }

    deinit {
        for chunk in decrypted.values {
            sodium_memzero(chunk, ChunkSealing.contentBytes)
            chunk.deallocate()
        }
        if let scratch {
            sodium_memzero(scratch, scratchCount)
            scratch.deallocate()
        }
    }

    /// The content's `count` bytes at `offset`, valid until the next call; nil when they lie
    /// past the end or a chunk fails to authenticate.
    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer? {
        guard !isDamaged, offset >= 0, count >= 0 else { return nil }
        let size = ChunkSealing.contentBytes
        let first = offset / size
        let last = (offset + max(count, 1) - 1) / size
        guard (last + 1) * ChunkSealing.chunkBytes <= storedCount else { return nil }
        if first == last {
            guard let chunk = chunk(first) else { return nil }
            return UnsafeRawBufferPointer(start: chunk + (offset - first * size), count: count)
        }
        if scratchCount < count {
            if let scratch {
                sodium_memzero(scratch, scratchCount)
                scratch.deallocate()
            }
            scratch = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 8)
            scratchCount = count
        }
        var copied = 0
        for index in first...last {
            guard let chunk = chunk(index) else { return nil }
            let start = index == first ? offset - first * size : 0
            let length = min(size - start, count - copied)
            scratch!.advanced(by: copied).copyMemory(from: chunk + start, byteCount: length)
            copied += length
        }
        return UnsafeRawBufferPointer(start: scratch, count: count)
    }

    private func chunk(_ index: Int) -> UnsafeMutableRawPointer? {
        if let chunk = decrypted[index] { return chunk }
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: ChunkSealing.contentBytes, alignment: 8)
        guard sealing.open(stored + index * ChunkSealing.chunkBytes, index: index, tag: tag, into: chunk) else {
            chunk.deallocate()
            isDamaged = true
            return nil
        }
        decrypted[index] = chunk
        return chunk
    }
}

/// Writes a sealed file's content as it streams, a chunk at a time, but for the first, which it
/// holds until ``finish()`` so that a header written last can still be patched into it. The
/// plain content it held is wiped once sealed.
final class SealedChunkWriter {
    private let sealing: ChunkSealing
    private let tag: UUID
    private let file: ReplacementFile
    private var first: [UInt8] = []
    private var pending: [UInt8] = []
    private var index = 0

    init(sealing: ChunkSealing, tag: UUID, file: ReplacementFile) {
        self.sealing = sealing
        self.tag = tag
        self.file = file
    }

    /// Adds `bytes` to the content.
    func append(_ bytes: [UInt8]) throws(JournalError) {
        pending.append(contentsOf: bytes)
        var start = 0
        while pending.count - start >= ChunkSealing.contentBytes {
            try emit(pending[start..<start + ChunkSealing.contentBytes])
            start += ChunkSealing.contentBytes
        }
        guard start > 0 else { return }
        let rest = Array(pending[start...])
        sodium_memzero(&pending, pending.count)
        pending = rest
    }

    /// Replaces the content at `offset` (within the first chunk) with `bytes`.
    func patch(_ bytes: [UInt8], at offset: Int) {
        if index == 0 {
            pending.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        } else {
            first.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
    }

    /// Seals what is left and the first chunk.
    func finish() throws(JournalError) {
        if !pending.isEmpty || index == 0 { try emit(pending[...]) }
        sodium_memzero(&pending, pending.count)
        pending = []
        let sealed = first.withUnsafeBytes { sealing.seal($0, index: 0, tag: tag) }
        try sealed.withUnsafeBytes { bytes in Result { () throws(JournalError) in try file.write(bytes, at: 0) } }.get()
        sodium_memzero(&first, first.count)
    }

    private func emit(_ content: ArraySlice<UInt8>) throws(JournalError) {
        if index == 0 {
            first = Array(content)
            try file.write(Data(count: ChunkSealing.chunkBytes))
        } else {
            try file.write(Data(content.withUnsafeBytes { sealing.seal($0, index: index, tag: tag) }))
        }
        index += 1
    }
}
