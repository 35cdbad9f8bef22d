import Foundation

/// A sorted list of distinct integers as the search store keeps it (a document's token ids,
/// a posting segment's entry numbers): the gaps between them, varint-encoded, so that dense
/// lists take about a byte a number.
///
/// A list whose reader knows its first value already (a posting segment's first entry number
/// is in its id) is kept without it: the gaps after it (``bytes(afterFirst:)``), read back with
/// that first value given (``forEach(in:first:_:)``).
enum DeltaList {
    /// Encodes `values`, which must be sorted ascending without repeats.
    static func encode(_ values: some Collection<Int64>) -> Data {
        Data(bytes(values))
    }

    /// `values` encoded, as bytes.
    static func bytes(_ values: some Collection<Int64>) -> [UInt8] {
        var bytes: [UInt8] = []
        append(values, after: 0, to: &bytes)
        return bytes
    }

    /// `values` encoded without their first: the gaps after it (none for a single value).
    static func bytes(afterFirst values: some Collection<Int64>) -> [UInt8] {
        var bytes: [UInt8] = []
        if let first = values.first { append(values.dropFirst(), after: first, to: &bytes) }
        return bytes
    }

    /// Appends `values` (ascending, each greater than `previous`, the list's last value or 0
    /// for an empty list) to an encoded list.
    static func append(_ values: some Collection<Int64>, after previous: Int64, to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + values.count * 2)
        var previous = previous
        for value in values {
            Varint.append(UInt64(value - previous), to: &bytes)
            previous = value
        }
    }

    /// The values of a list; with `first`, of one kept without it (``bytes(afterFirst:)``).
    static func decode(_ data: Data, first: Int64? = nil) -> [Int64] {
        var values: [Int64] = []
        forEach(in: data, first: first) { values.append($0) }
        return values
    }

    /// Calls `body` with each value in order, without building an array.
    static func forEach(in data: Data, _ body: (Int64) -> Void) {
        data.withUnsafeBytes { forEach(in: $0, body) }
    }

    /// The same for a list's bytes where they lie (a row's blob read in place).
    static func forEach(in raw: UnsafeRawBufferPointer, _ body: (Int64) -> Void) {
        forEach(in: raw, first: nil, body)
    }

    /// Calls `body` with `first`, then with each value of the list kept without it
    /// (``bytes(afterFirst:)``); with `first` nil, as a whole list's.
    static func forEach(in data: Data, first: Int64?, _ body: (Int64) -> Void) {
        data.withUnsafeBytes { forEach(in: $0, first: first, body) }
    }

    /// The same for a list's bytes where they lie.
    static func forEach(in raw: UnsafeRawBufferPointer, first: Int64?, _ body: (Int64) -> Void) {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        var position = 0
        var previous: Int64 = first ?? 0
        if let first { body(first) }
        while let delta = Varint.read(bytes, at: &position) {
            previous &+= Int64(bitPattern: delta)
            body(previous)
        }
    }
}
