import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The prefix table as a file beside the search store, laid out to be mapped into memory and
/// read in place: a process that answers one query touches the header, one slot and one bucket,
/// whatever the vocabulary's size.
///
/// Layout (little-endian):
/// - header, 64 bytes: magic `JRNLPFX4`, the 16-byte tag the search store names the file by,
///   the largest token id in the file, the token count, the slot count and the bytes of the
///   bucket area;
/// - buckets: each key's tokens back to back in text order, after their count. A token is
///   stored without its key's code points, which every token of the bucket starts with, and
///   front-coded: its id, the bytes it shares with the token before it (both without the key)
///   and the length of the rest (varints, ``Varint``), then the rest's UTF-8 bytes;
/// - slots, 12 bytes each, an open-addressing hash table (linear probing, at most two thirds
///   full): a prefix table key (0: empty, 8 bytes) and the bucket's offset in the bucket area
///   (4 bytes: the bucket area is kept under 4 GiB).
///
/// An encrypted journal's file holds the same layout sealed in chunks (``ChunkSealing``): a
/// lookup then decrypts the few chunks it reads.
///
/// Invariant: the file is written whole under a temporary name, synced, and renamed into place
/// (``ReplacementFile``), so a reader, or the disk after a power cut, sees an old file or a new
/// one, never a mix; every read is bounds-checked, so a damaged
/// file answers wrongly at worst (``JournalVerifier`` finds that), never crashes. Writing streams
/// the tokens in text order (each key's tokens are then contiguous), holding only the slots.
final class PrefixTableFile: @unchecked Sendable {
    static let magic = Array("JRNLPFX4".utf8)
    private static let headerBytes = 64
    private static let slotBytes = 12
    /// The most bytes a token's id, shared length and length take before its text.
    private static let recordHeadBytes = 30

    /// The tag the search store names this file by.
    let tag: UUID
    /// The largest token id in the file: tokens added to the search store later have larger ids.
    let maxTokenID: Int64
    let tokenCount: Int
    /// The mapped file, and for a sealed one the reader of its content.
    private let base: UnsafeRawPointer
    private let byteCount: Int
    private let sealed: SealedChunkReader?
    private let slotCount: Int
    private let slotsStart: Int
    private static let bucketsStart = headerBytes

    /// Why a file was not mapped.
    enum Refusal: Error {
        /// No file at that path.
        case missing
        /// Unreadable, or damaged: not a whole file of this layout.
        case unusable
        /// A whole file of this layout under another tag than the one expected: saved again by
        /// another process, which has not yet named it in the search store. Not damage.
        case otherTag
        /// A prefix table of an earlier layout (another version's magic): not damage, but a file
        /// for the next catch-up to save again.
        case earlierLayout
    }

    /// Maps the file at `url`, sealed with `sealing` when given; nil when it is missing,
    /// unreadable, damaged, of an earlier layout or has another tag than `expectedTag`.
    convenience init?(mapping url: URL, expectedTag: UUID, sealing: ChunkSealing? = nil) {
        do { try self.init(opening: url, expectedTag: expectedTag, sealing: sealing) } catch { return nil }
    }

    /// Why the file at `url` can't be mapped as ``init(mapping:expectedTag:sealing:)`` maps it;
    /// nil when it can.
    static func refusal(mapping url: URL, expectedTag: UUID, sealing: ChunkSealing? = nil) -> Refusal? {
        do {
            _ = try PrefixTableFile(opening: url, expectedTag: expectedTag, sealing: sealing)
            return nil
        } catch {
            return error
        }
    }

    private init(opening url: URL, expectedTag: UUID, sealing: ChunkSealing?) throws(Refusal) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw errno == ENOENT ? .missing : .unusable }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= Self.headerBytes else { throw .unusable }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            throw .unusable
        }
        let start = UnsafeRawPointer(mapped)
        base = start
        byteCount = size
        let reader = sealing.map { SealedChunkReader(sealing: $0, tag: expectedTag, stored: start, count: size) }
        sealed = reader
        let read =
            reader.map { $0.bytes(at: 0, count: Self.headerBytes) }
            ?? UnsafeRawBufferPointer(start: start, count: Self.headerBytes)
        guard let header = read, let tag = UUID(bytes: UnsafeRawBufferPointer(rebasing: header[8..<24])) else {
            munmap(mapped, size)
            throw .unusable
        }
        self.tag = tag
        maxTokenID = Int64(littleEndian: header.loadUnaligned(fromByteOffset: 24, as: Int64.self))
        let tokens = UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        let slots = UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
        let bucketBytes = UInt64(littleEndian: header.loadUnaligned(fromByteOffset: 48, as: UInt64.self))
        let contentSize = UInt64(Self.headerBytes) &+ slots &* UInt64(Self.slotBytes) &+ bucketBytes
        let fits =
            slots > 0 && slots <= UInt64(size / Self.slotBytes) && tokens <= UInt64(size)
            && bucketBytes <= UInt64(size) && contentSize <= UInt64(size)
            && (sealing == nil
                ? contentSize == UInt64(size)
                : UInt64(ChunkSealing.storedBytes(ofContent: Int(contentSize))) == UInt64(size))
        guard header.starts(with: Self.magic), tag == expectedTag, fits else {
            // Read before the header's pages go with the mapping.
            let earlier =
                header.starts(with: Self.magic.dropLast()) && !header.starts(with: Self.magic) && tag == expectedTag
            let otherTag = header.starts(with: Self.magic) && fits
            munmap(mapped, size)
            throw earlier ? .earlierLayout : otherTag ? .otherTag : .unusable
        }
        tokenCount = Int(tokens)
        slotCount = Int(slots)
        slotsStart = Self.headerBytes + Int(bucketBytes)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), byteCount) }

    /// Whether a sealed file's chunk failed to authenticate: what it answered since is
    /// incomplete, and it must not be used.
    var isDamaged: Bool { sealed?.isDamaged ?? false }

    /// The ids of the file's tokens that start with `word` (by code points), nil when the file
    /// turns out damaged. A word of three code points or more reads one bucket, up to the end of
    /// the tokens it starts (a bucket is in text order); a shorter one, every bucket.
    func tokenIDs(withPrefix word: String) -> [Int64]? {
        let prefix = Array(word.utf8)
        var ids: [Int64] = []
        let starts = { (utf8: UnsafeRawBufferPointer) in
            utf8.count >= prefix.count && utf8.prefix(prefix.count).elementsEqual(prefix)
        }
        if word.unicodeScalars.count < 3 {
            forEachToken { id, utf8 in if starts(utf8) { ids.append(id) } }
        } else if let bucket = bucket(for: PrefixTable.key(of: prefix)) {
            forEachToken(in: bucket) { id, utf8 in
                guard starts(utf8) else { return ids.isEmpty }
                ids.append(id)
                return true
            }
        }
        return isDamaged ? nil : ids
    }

    /// Whether the file holds the token `id` with the bytes `utf8` in the bucket of its own key,
    /// where a lookup finds it: one bucket read, for checking every token of a large file.
    func holds(id: Int64, utf8 token: some Collection<UInt8>) -> Bool {
        guard let bucket = bucket(for: PrefixTable.key(of: token)) else { return false }
        var found = false
        forEachToken(in: bucket) { candidate, utf8 in
            found = candidate == id && utf8.elementsEqual(token)
            return !found
        }
        return found
    }

    /// Every token of the file, bucket by bucket.
    func forEachToken(_ body: (Int64, UnsafeRawBufferPointer) -> Void) {
        forEachToken { _, id, utf8 in body(id, utf8) }
    }

    /// Adds every token of the file to `table`, each with the key of its bucket.
    func load(into table: inout PrefixTable) {
        // The writer makes half as many slots again as there are keys.
        table.reserveCapacity(tokens: tokenCount, keys: slotCount * 2 / 3)
        forEachToken { key, id, utf8 in table.insert(id: id, utf8: utf8.assumingMemoryBound(to: UInt8.self), key: key) }
    }

    private func forEachToken(_ body: (_ key: UInt64, _ id: Int64, _ utf8: UnsafeRawBufferPointer) -> Void) {
        for slot in 0..<slotCount {
            let (key, offset) = self.slot(slot)
            if key != 0 {
                forEachToken(in: (key, offset)) { id, utf8 in
                    body(key, id, utf8)
                    return true
                }
            }
        }
    }

    private func bucket(for key: UInt64) -> (key: UInt64, offset: UInt64)? {
        var slot = Self.home(of: key, slotCount: slotCount)
        for _ in 0..<slotCount {
            let found = self.slot(slot)
            if found.key == key { return found }
            if found.key == 0 { return nil }
            slot = slot + 1 == slotCount ? 0 : slot + 1
        }
        return nil
    }

    /// The content's `count` bytes at `offset`, valid until the next read; nil when a sealed
    /// chunk fails to authenticate.
    private func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer? {
        if let sealed { return sealed.bytes(at: offset, count: count) }
        return UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    private func slot(_ index: Int) -> (key: UInt64, offset: UInt64) {
        guard let slot = bytes(at: slotsStart + index * Self.slotBytes, count: Self.slotBytes) else { return (0, 0) }
        return (
            UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            UInt64(UInt32(littleEndian: slot.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        )
    }

    /// Hands `body` each token of a bucket, its text whole (the key's code points, then the
    /// rest), while `body` returns true. Stops at the first record that doesn't fit the file.
    private func forEachToken(
        in bucket: (key: UInt64, offset: UInt64), _ body: (Int64, UnsafeRawBufferPointer) -> Bool
    ) {
        guard bucket.offset < UInt64(slotsStart - Self.bucketsStart) else { return }
        var position = Self.bucketsStart + Int(bucket.offset)
        var read = 0
        guard let head = bytes(at: position, count: min(Self.recordHeadBytes, slotsStart - position)),
            let count = Varint.read(head.assumingMemoryBound(to: UInt8.self), at: &read)
        else { return }
        position += read
        var text = PrefixTable.utf8(ofKey: bucket.key)
        let keyBytes = text.count
        for _ in 0..<count {
            // The id and the lengths, read from a window that holds them at their longest.
            let window = min(Self.recordHeadBytes, slotsStart - position)
            guard window > 0, let head = bytes(at: position, count: window) else { return }
            read = 0
            let varints = head.assumingMemoryBound(to: UInt8.self)
            guard let id = Varint.read(varints, at: &read), let shared = Varint.read(varints, at: &read),
                shared <= UInt64(text.count - keyBytes), let length = Varint.read(varints, at: &read),
                length <= UInt64(slotsStart - position - read),
                let rest = bytes(at: position + read, count: Int(length))
            else { return }
            text.removeLast(text.count - keyBytes - Int(shared))
            text.append(contentsOf: rest.assumingMemoryBound(to: UInt8.self))
            guard text.withUnsafeBytes({ body(Int64(bitPattern: id), $0) }) else { return }
            position += read + Int(length)
        }
    }

    /// The key's home slot: its hash scaled to the slot count, which need not be a power of two.
    private static func home(of key: UInt64, slotCount: Int) -> Int {
        Int((key &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: UInt64(slotCount)).high)
    }

    // MARK: Writing

    /// Saves the tokens `forEachToken` hands its body (an id and the token's UTF-8, valid for
    /// the call), which must come in text order (code point order, as the token table keeps
    /// them), to `url` with `tag`: streamed to a temporary file beside it (one name,
    /// reused: the caller holds the catch-up lock), then synced, renamed into place and its
    /// folder synced (``ReplacementFile``).
    ///
    /// With `sealing`, the file is sealed in chunks as it streams (``SealedChunkWriter``).
    static func save(
        tag: UUID, to url: URL, sealing: ChunkSealing? = nil,
        forEachToken: ((_ id: Int64, _ utf8: UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let file = try ReplacementFile(replacing: url, temporaryURL: URL(fileURLWithPath: url.path + ".partial"))
        let sealed = sealing.map { SealedChunkWriter(sealing: $0, tag: tag, file: file) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func flush() throws {
            if let sealed { try sealed.append(buffer) } else { try file.write(Data(buffer)) }
            buffer.removeAll(keepingCapacity: true)
        }
        func output(_ bytes: [UInt8]) throws {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 20 { try flush() }
        }
        try output([UInt8](repeating: 0, count: headerBytes))
        var buckets: [(key: UInt64, offset: UInt64)] = []
        var bucketBytes: UInt64 = 0
        // The bucket being written: its key's UTF-8, its records and their count; and the token
        // before, whole (every token of a bucket starts with its key's bytes).
        var (keyUTF8, records, count): ([UInt8], [UInt8], UInt64) = ([], [], 0)
        var last: [UInt8] = []
        var (maxTokenID, tokenCount): (Int64, UInt64) = (0, 0)
        func endBucket() throws {
            guard count > 0 else { return }
            let start = buffer.count
            Varint.append(count, to: &buffer)
            buffer.append(contentsOf: records)
            bucketBytes += UInt64(buffer.count - start)
            guard bucketBytes <= UInt64(UInt32.max) else {
                throw JournalError.store("the prefix table's tokens take more than its file's 4 GiB of buckets")
            }
            if buffer.count >= 1 << 20 { try flush() }
            records.removeAll(keepingCapacity: true)
            count = 0
        }
        try forEachToken { id, utf8 in
            guard tokenCount == 0 || last.lexicographicallyPrecedes(utf8) else {
                throw JournalError.store("the tokens to save are not in text order")
            }
            let key = PrefixTable.key(of: utf8)
            if buckets.last?.key != key {
                try endBucket()
                buckets.append((key, bucketBytes))
                keyUTF8 = PrefixTable.utf8(ofKey: key)
            }
            guard utf8.starts(with: keyUTF8) else { throw JournalError.store("a token to save is not UTF-8") }
            // The bytes after the key this token shares with the one before in its bucket.
            var shared = keyUTF8.count
            if count > 0 {
                while shared < min(last.count, utf8.count), last[shared] == utf8[shared] { shared += 1 }
            }
            Varint.append(UInt64(bitPattern: id), to: &records)
            Varint.append(UInt64(shared - keyUTF8.count), to: &records)
            Varint.append(UInt64(utf8.count - shared), to: &records)
            records.append(contentsOf: utf8[shared...].assumingMemoryBound(to: UInt8.self))
            last.removeAll(keepingCapacity: true)
            last.append(contentsOf: utf8.assumingMemoryBound(to: UInt8.self))
            count += 1
            (maxTokenID, tokenCount) = (max(maxTokenID, id), tokenCount + 1)
        }
        try endBucket()
        let slotCount = buckets.count + buckets.count / 2 + 1
        var slots = [UInt8](repeating: 0, count: slotCount * slotBytes)
        var taken = [Bool](repeating: false, count: slotCount)
        for bucket in buckets {
            var slot = home(of: bucket.key, slotCount: slotCount)
            while taken[slot] { slot = slot + 1 == slotCount ? 0 : slot + 1 }
            taken[slot] = true
            var bytes: [UInt8] = []
            append(bucket.key, to: &bytes)
            append(UInt32(bucket.offset), to: &bytes)
            slots.replaceSubrange(slot * slotBytes..<slot * slotBytes + bytes.count, with: bytes)
        }
        try output(slots)
        try flush()
        var header = magic
        tag.withBytes { header.append(contentsOf: $0) }
        append(UInt64(bitPattern: maxTokenID), to: &header)
        append(tokenCount, to: &header)
        append(UInt64(slotCount), to: &header)
        append(bucketBytes, to: &header)
        header.append(contentsOf: repeatElement(0, count: headerBytes - header.count))
        if let sealed {
            sealed.patch(header, at: 0)
            try sealed.finish()
        } else {
            try header.withUnsafeBytes { bytes in Result { () throws(JournalError) in try file.write(bytes, at: 0) } }
                .get()
        }
        try file.commit()
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
