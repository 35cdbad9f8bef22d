/// The in-memory prefix table: every token of the search store in a hash table keyed by its
/// first three code points (the whole token when shorter), so that the tokens starting with a
/// query word are found without touching the disk. A second, small table maps each one- and
/// two-code-point prefix to the keys that start with it, for queries that short.
///
/// Token texts live back to back in one UTF-8 buffer: no object per token.
package struct PrefixTable: Sendable {
    private var utf8: [UInt8] = []
    /// Token i's text is `utf8[ends[i-1] ..< ends[i]]` (from 0 for the first).
    private var ends: [UInt32] = []
    private var ids: [Int64] = []
    private var buckets: [UInt64: [UInt32]] = [:]
    private var keysByShortPrefix: [UInt64: [UInt64]] = [:]
    /// The largest token id in the table: tokens added later have larger ids.
    private(set) var maxTokenID: Int64 = 0

    /// How many tokens it holds.
    package var tokenCount: Int { ids.count }

    /// About how many bytes the table occupies.
    package var memoryFootprint: Int {
        let bucketBytes = buckets.count * (8 + 32) + ids.count * 4
        let shortBytes = keysByShortPrefix.count * (8 + 32) + keysByShortPrefix.values.reduce(0) { $0 + $1.count * 8 }
        return utf8.capacity + ends.capacity * 4 + ids.capacity * 8 + bucketBytes + shortBytes
    }

    /// Makes room for `tokens` more tokens under `keys` more keys.
    mutating func reserveCapacity(tokens: Int, keys: Int) {
        ends.reserveCapacity(ends.count + tokens)
        ids.reserveCapacity(ids.count + tokens)
        buckets.reserveCapacity(buckets.count + keys)
    }

    /// Adds a token; ids may come in any order (a token is added once). `key`, when the caller
    /// knows it (a file's bucket), is the token's key (``key(of:)``).
    mutating func insert(id: Int64, utf8 token: some Collection<UInt8>, key known: UInt64? = nil) {
        let index = UInt32(ids.count)
        utf8.append(contentsOf: token)
        ends.append(UInt32(utf8.count))
        ids.append(id)
        maxTokenID = max(maxTokenID, id)
        let key = known ?? Self.key(of: token)
        if buckets[key]?.append(index) == nil {
            buckets[key] = [index]
            keysByShortPrefix[key & Self.firstScalarMask, default: []].append(key)
            if key & Self.secondScalarMask != 0 {
                keysByShortPrefix[key & Self.firstTwoScalarsMask, default: []].append(key)
            }
        }
    }

    /// The ids of every token that starts with `word` (by code points).
    func tokenIDs(withPrefix word: String) -> [Int64] {
        let prefix = Array(word.utf8)
        let key = Self.key(of: prefix)
        guard key & Self.thirdScalarMask != 0 else {
            return (keysByShortPrefix[key] ?? []).flatMap { buckets[$0, default: []].map { ids[Int($0)] } }
        }
        return (buckets[key] ?? []).compactMap { index in
            let start = index == 0 ? 0 : Int(ends[Int(index) - 1])
            let end = Int(ends[Int(index)])
            guard end - start >= prefix.count, utf8[start..<start + prefix.count].elementsEqual(prefix) else {
                return nil
            }
            return ids[Int(index)]
        }
    }

    /// Whether the table holds the token `id` with the bytes `utf8` in the bucket of its own key,
    /// where a lookup finds it: one bucket read, for checking every token of a large table.
    func holds(id: Int64, utf8 token: some Collection<UInt8>) -> Bool {
        (buckets[Self.key(of: token)] ?? []).contains { index in
            let start = index == 0 ? 0 : Int(ends[Int(index) - 1])
            return ids[Int(index)] == id && utf8[start..<Int(ends[Int(index)])].elementsEqual(token)
        }
    }

    // The key packs the first three code points, 21 bits each; a shorter token leaves zeros
    // (U+0000 is never part of a token, so no key is ambiguous).
    private static let firstScalarMask: UInt64 = 0x1F_FFFF << 42
    private static let secondScalarMask: UInt64 = 0x1F_FFFF << 21
    private static let thirdScalarMask: UInt64 = 0x1F_FFFF
    private static let firstTwoScalarsMask = firstScalarMask | secondScalarMask

    /// The UTF-8 of the code points `key` packs: what every token of its bucket starts with.
    static func utf8(ofKey key: UInt64) -> [UInt8] {
        var utf8: [UInt8] = []
        for shift: UInt64 in [42, 21, 0] {
            guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: (key >> shift) & 0x1F_FFFF)), scalar != "\0"
            else { break }
            utf8.append(contentsOf: Character(scalar).utf8)
        }
        return utf8
    }

    static func key(of utf8: some Collection<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        var shift: UInt64 = 42
        var iterator = utf8.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                key |= UInt64(scalar.value) << shift
                if shift == 0 { return key }
                shift -= 21
            case .emptyInput, .error:
                return key
            }
        }
    }
}
