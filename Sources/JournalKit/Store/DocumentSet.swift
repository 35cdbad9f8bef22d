/// A set of entry numbers as a bitmap: one bit per number up to the largest in the search
/// store, so that the postings of many tokens unite and the sets of several words intersect
/// with word-wide operations, and the total is a population count.
struct DocumentSet: Sendable {
    private var words: [UInt64]

    /// An empty set for entry numbers up to `maximum`.
    init(maximum: Int64) {
        words = Array(repeating: 0, count: Int(max(0, maximum)) / 64 + 1)
    }

    /// Adds `number`; numbers beyond the set's maximum are ignored (they came after it was sized).
    mutating func insert(_ number: Int64) {
        let word = Int(number >> 6)
        guard number >= 0, word < words.count else { return }
        words[word] |= 1 << UInt64(number & 63)
    }

    func contains(_ number: Int64) -> Bool {
        let word = Int(number >> 6)
        guard number >= 0, word < words.count else { return false }
        return words[word] & (1 << UInt64(number & 63)) != 0
    }

    /// Keeps only the numbers also in `other`.
    mutating func formIntersection(_ other: DocumentSet) {
        let shared = min(words.count, other.words.count)
        words.withUnsafeMutableBufferPointer { mine in
            other.words.withUnsafeBufferPointer { theirs in
                for index in 0..<shared { mine[index] &= theirs[index] }
                for index in shared..<mine.count { mine[index] = 0 }
            }
        }
    }

    var count: Int {
        words.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Every number in the set, ascending.
    var members: [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(Int64(index << 6 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return result
    }
}
