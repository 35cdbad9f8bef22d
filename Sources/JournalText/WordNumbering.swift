#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Distinct words numbered in the order first seen, across any number of texts, compared by
/// their code points (their UTF-8 bytes) as the search semantics compare tokens: how a batch
/// of entries becomes token numbers with one table lookup per word and no string per word.
///
/// Invariant: `words[i]` is the i-th distinct word seen, and the table finds each word's
/// number from its bytes alone.
///
/// Words are found by a hash of their bytes rather than through a dictionary of strings, whose
/// SipHash and string per word would cost indexing more than the hash table itself. The hash is seeded once per process
/// (not per table: an entry's tokens make a table each, and a seed is a system call): the input
/// is the user's own journal, and the seed keeps a text from lining up collisions that hold in
/// every process (the threat a hash table faces here is accidental clustering, not an
/// adversary who sees the seed).
package struct WordNumbering {
    /// Each distinct word once, in the order first seen; a word's number is its index here.
    package private(set) var words: [String] = []
    /// The words' bytes one after another: word i is `bytes[starts[i]..<starts[i + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Open addressing: a word's number in the first free slot from its hash on, -1 when free.
    private var slots: [Int32]
    /// For each word, the text that last used it, and its index among that text's words.
    private var lastText: [Int32] = []
    private var indexInText: [Int32] = []
    private var texts: Int32 = 0
    private let seed = Self.processSeed
    private static let processSeed = UInt64.random(in: .min ... .max)

    /// A numbering with room for about `capacity` words before it grows.
    package init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        words.reserveCapacity(capacity)
    }

    /// Numbers the words of `text` (its words as ``WordBreaker`` finds them): `distinct` becomes
    /// the numbers of its distinct words in the order they first appear, and `order` each of its
    /// words in order, as an index into `distinct`.
    package mutating func add(text: String, distinct: inout [Int32], order: inout [Int32]) {
        distinct.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        let current = texts
        texts += 1
        WordBreaker.forEachWord(in: text) { word in
            let number = Int(self.number(of: word).number)
            if lastText[number] != current {
                lastText[number] = current
                indexInText[number] = Int32(distinct.count)
                distinct.append(Int32(number))
            }
            order.append(indexInText[number])
        }
    }

    /// The number of `word`, given a new one when it is new; `isNew` says which.
    package mutating func number(of word: String) -> (number: Int32, isNew: Bool) {
        var word = word
        return word.withUTF8 { number(of: $0) }
    }

    /// The number of the word whose UTF-8 bytes are `word`: the same as for it as a string.
    package mutating func number(of word: UnsafeBufferPointer<UInt8>) -> (number: Int32, isNew: Bool) {
        let hash = Self.hash(word, seed: seed)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = slots[slot]
            if number < 0 { break }
            if hashes[Int(number)] == hash, matches(Int(number), word) { return (number, false) }
            slot = (slot + 1) & mask
        }
        let number = Int32(words.count)
        slots[slot] = number
        bytes.append(contentsOf: word)
        starts.append(bytes.count)
        hashes.append(hash)
        words.append(String(decoding: word, as: UTF8.self))
        lastText.append(-1)
        indexInText.append(0)
        if words.count * 2 > slots.count { grow() }
        return (number, true)
    }

    private func matches(_ number: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[number]
        guard starts[number + 1] - start == word.count else { return false }
        guard let base = word.baseAddress else { return true }
        return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, base, word.count) == 0 }
    }

    /// Doubles the slots and places every word again from its kept hash.
    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    /// A seeded hash of `bytes`, eight at a time, each mixed in with a multiply and shifts.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            hash = mix(hash ^ tail)
        }
        return mix(hash)
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
