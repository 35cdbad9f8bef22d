import Foundation

/// Where a token stands in each document of a posting segment, as the `positions` column of
/// the `posting` table keeps it beside the segment's `documents`: for each document, in the
/// segment's order, the byte length of its list as a varint, then the list itself, the first
/// position and then each one's distance from the one before, all varints. A position counts
/// the document's words from 0, as `Tokens.withOrder` lists them at import and at query time.
///
/// The length before each list lets a reader step over the documents it doesn't want without
/// decoding their positions, and lets a writer cut a segment's lists at any document.
///
/// Invariant: a segment's positions hold one list per number of its `documents`, in the same
/// order, each non-empty and strictly ascending.
enum PositionLists {
    /// What reading lists that don't match their segment's entries throws.
    static let damaged = JournalError.store("a posting segment's positions are damaged: run journal reindex")

    /// Appends one document's list: `positions`, ascending, not empty. Its length is counted
    /// first, so that the list is written in place, not into a buffer and copied.
    static func append(_ positions: some Collection<UInt32>, to bytes: inout [UInt8]) {
        var (length, previous): (Int, UInt32) = (0, 0)
        for position in positions {
            length += Varint.size(UInt64(position - previous))
            previous = position
        }
        Varint.append(UInt64(length), to: &bytes)
        previous = 0
        for position in positions {
            Varint.append(UInt64(position - previous), to: &bytes)
            previous = position
        }
    }

    /// The byte offset in `bytes` where the list of the `count`th document starts: the end of
    /// the first `count` lists. Nil when `bytes` holds fewer.
    static func offset(after count: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        var position = start
        for _ in 0..<count {
            guard let length = Varint.read(bytes, at: &position), position + Int(length) <= bytes.count else {
                return nil
            }
            position += Int(length)
        }
        return position
    }

    /// The list at `offset`, undecoded (the bytes after its length), moving past it; nil when
    /// the bytes end there or inside it.
    static func nextList(in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> UnsafeBufferPointer<UInt8>? {
        var position = offset
        guard let length = Varint.read(bytes, at: &position), position + Int(length) <= bytes.count else { return nil }
        offset = position + Int(length)
        return UnsafeBufferPointer(rebasing: bytes[position..<offset])
    }

    /// Calls `body` with each document's list, undecoded, in order. Returns false when the
    /// bytes end inside a list.
    @discardableResult
    static func forEachList(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let list = nextList(in: bytes, at: &offset) else { return false }
            try body(list)
        }
        return true
    }

    /// The positions of one list, ascending, into `positions` (emptied first). False when the
    /// list is empty, cut short or not ascending.
    static func decode(_ list: UnsafeBufferPointer<UInt8>, into positions: inout [UInt32]) -> Bool {
        positions.removeAll(keepingCapacity: true)
        return decode(list, appendingTo: &positions)
    }

    /// The positions of one list, ascending, appended to `positions`. False when the list is
    /// empty, cut short or not ascending.
    static func decode(_ list: UnsafeBufferPointer<UInt8>, appendingTo positions: inout [UInt32]) -> Bool {
        var offset = 0
        var previous: UInt64 = 0
        var first = true
        while offset < list.count {
            let byte = list[offset]
            let delta: UInt64
            if byte < 0x80 {
                // Most gaps take one byte.
                delta = UInt64(byte)
                offset += 1
            } else {
                guard let read = Varint.read(list, at: &offset) else { return false }
                delta = read
            }
            guard first || delta > 0 else { return false }
            first = false
            previous += delta
            guard previous <= UInt64(UInt32.max) else { return false }
            positions.append(UInt32(previous))
        }
        return !first
    }
}
