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

    /// Adds every number of `range` (those beyond the set's maximum are ignored), a word at a
    /// time.
    mutating func insert(range: ClosedRange<Int64>) {
        let low = max(range.lowerBound, 0)
        let high = min(range.upperBound, Int64(words.count) * 64 - 1)
        guard low <= high else { return }
        let (firstWord, lastWord) = (Int(low >> 6), Int(high >> 6))
        let lowMask = UInt64.max << UInt64(low & 63)
        let highMask = UInt64.max >> UInt64(63 - (high & 63))
        if firstWord == lastWord {
            words[firstWord] |= lowMask & highMask
            return
        }
        words[firstWord] |= lowMask
        for index in (firstWord + 1)..<lastWord { words[index] = .max }
        words[lastWord] |= highMask
    }

    /// The smallest and largest numbers in the set, or nil when it is empty.
    var bounds: ClosedRange<Int64>? {
        guard let first = words.firstIndex(where: { $0 != 0 }), let last = words.lastIndex(where: { $0 != 0 }) else {
            return nil
        }
        return Int64(
            first << 6 + words[first].trailingZeroBitCount)...Int64(last << 6 + 63 - words[last].leadingZeroBitCount)
    }

    func contains(_ number: Int64) -> Bool {
        let word = Int(number >> 6)
        guard number >= 0, word < words.count else { return false }
        return words[word] & (1 << UInt64(number & 63)) != 0
    }

    /// Whether every number of `range` is in the set.
    func containsAll(_ range: Range<Int64>) -> Bool {
        guard let last = range.last else { return true }
        guard range.lowerBound >= 0, Int(last >> 6) < words.count else { return false }
        let (firstWord, lastWord) = (Int(range.lowerBound >> 6), Int(last >> 6))
        let lowMask = UInt64.max << UInt64(range.lowerBound & 63)
        let highMask = UInt64.max >> UInt64(63 - (last & 63))
        if firstWord == lastWord { return words[firstWord] & lowMask & highMask == lowMask & highMask }
        guard words[firstWord] & lowMask == lowMask, words[lastWord] & highMask == highMask else { return false }
        return words[(firstWord + 1)..<lastWord].allSatisfy { $0 == .max }
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

    /// Adds the numbers of `other`.
    mutating func formUnion(_ other: DocumentSet) {
        combine(other) { $0 | $1 }
    }

    /// Removes the numbers of `other`.
    mutating func subtract(_ other: DocumentSet) {
        combine(other) { $0 & ~$1 }
    }

    /// Applies `operation` to each word and the same word of `other` (0 beyond its end).
    private mutating func combine(_ other: DocumentSet, _ operation: (UInt64, UInt64) -> UInt64) {
        words.withUnsafeMutableBufferPointer { mine in
            other.words.withUnsafeBufferPointer { theirs in
                for index in 0..<mine.count {
                    mine[index] = operation(mine[index], index < theirs.count ? theirs[index] : 0)
                }
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

extension DocumentSet {
    /// Where each member stands among the set's members in ascending order, found in constant
    /// time (the members before each word of the bitmap, counted once), so that values kept per
    /// member in a dense array are reached from an entry number without a hash table.
    struct Ranks {
        private let words: [UInt64]
        private let before: [Int]

        init(_ set: DocumentSet) {
            words = set.words
            var before: [Int] = []
            before.reserveCapacity(words.count)
            var count = 0
            for word in words {
                before.append(count)
                count += word.nonzeroBitCount
            }
            self.before = before
        }

        /// The index of `number` in the set's `members`, nil when it is not one.
        func rank(of number: Int64) -> Int? {
            let word = Int(number >> 6)
            guard number >= 0, word < words.count else { return nil }
            let bit = UInt64(1) << UInt64(number & 63)
            guard words[word] & bit != 0 else { return nil }
            return before[word] + (words[word] & (bit - 1)).nonzeroBitCount
        }
    }
}
