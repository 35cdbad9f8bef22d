import JournalText

/// Entries broken into words, in the order they were added: their distinct tokens, numbered
/// within the slice, each entry's tokens as indexes into them, its number of words, and its
/// position lists (``PositionLists``). What the indexer merges into a batch, slice by slice,
/// numbering each distinct token once per slice.
///
/// Invariant: `entryTokens`, `entryLengths` and `entryPositions` have one element per entry
/// added; entry e's i-th position list is that of token `entryTokens[e][i]`, and every index
/// is below `texts.count`.
struct BrokenSlice: Sendable {
    let texts: [String]
    let entryTokens: [[Int32]]
    let entryLengths: [Int]
    let entryPositions: [[UInt8]]

    /// Builds a slice an entry at a time.
    struct Builder {
        private var numbering: WordNumbering
        private var distinct: [Int32] = []
        private var order: [Int32] = []
        private var entryTokens: [[Int32]] = []
        private var entryLengths: [Int] = []
        private var entryPositions: [[UInt8]] = []
        private var scratch = (positions: [UInt32](), starts: [Int](), next: [Int]())

        /// A builder for about `entries` entries. The numbering starts small and doubles as it
        /// fills: a table larger than its words spreads its probes over more cache lines.
        init(entries: Int) {
            numbering = WordNumbering(capacity: entries)
            entryTokens.reserveCapacity(entries)
            entryLengths.reserveCapacity(entries)
            entryPositions.reserveCapacity(entries)
        }

        /// Breaks the entry of canonical text `canonical` into words (``Tokens/withOrder``).
        mutating func add(canonical: String) {
            numbering.add(text: canonical, distinct: &distinct, order: &order)
            entryLengths.append(order.count)
            entryPositions.append(Self.positionLists(tokens: distinct.count, order: order, scratch: &scratch))
            // A copy of its own size: `distinct` keeps the capacity of the longest entry.
            entryTokens.append(distinct.withUnsafeBufferPointer { Array($0) })
        }

        /// The slice of the entries added.
        func finish() -> BrokenSlice {
            BrokenSlice(
                texts: numbering.words, entryTokens: entryTokens, entryLengths: entryLengths,
                entryPositions: entryPositions)
        }

        /// An entry's position lists, one for each of its `tokens` distinct tokens in their
        /// order, from its words in order as indexes into them.
        private static func positionLists(
            tokens: Int, order: [Int32], scratch: inout (positions: [UInt32], starts: [Int], next: [Int])
        ) -> [UInt8] {
            // Counting sort of the word positions by token: `starts[t]` is where token t's begin.
            scratch.starts.removeAll(keepingCapacity: true)
            scratch.starts.append(contentsOf: repeatElement(0, count: tokens + 1))
            for token in order { scratch.starts[Int(token) + 1] += 1 }
            for token in 0..<tokens { scratch.starts[token + 1] += scratch.starts[token] }
            scratch.positions.removeAll(keepingCapacity: true)
            scratch.positions.append(contentsOf: repeatElement(0, count: order.count))
            scratch.next.removeAll(keepingCapacity: true)
            scratch.next.append(contentsOf: scratch.starts)
            for (position, token) in order.enumerated() {
                scratch.positions[scratch.next[Int(token)]] = UInt32(position)
                scratch.next[Int(token)] += 1
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(order.count * 2 + tokens)
            scratch.positions.withUnsafeBufferPointer { positions in
                for token in 0..<tokens {
                    PositionLists.append(
                        UnsafeBufferPointer(rebasing: positions[scratch.starts[token]..<scratch.starts[token + 1]]),
                        to: &bytes)
                }
            }
            return bytes
        }
    }
}
