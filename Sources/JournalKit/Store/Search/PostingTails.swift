/// The last segment of each token (or prefix key) the indexer wrote recently, kept so that
/// appending entries numbered after it rewrites the segment with nothing read
/// (``PostingSegments``). Valid while no other process writes the store: the indexer drops
/// them when the store moved under it.
///
/// Invariant: `bytes` is the sum of the kept tails' sizes: their buffers' capacities plus what
/// each costs beside (``Tail/overhead``). The tails are held within a budget of bytes, not a
/// count: a frequent token's last segment holds up to ``PostingSegments/capacity`` entries with
/// their positions, and the more entries a journal has, the more tokens have such a segment; and
/// a rare token's tail is mostly overhead, and a growing vocabulary brings more of them every
/// batch. A tail read from the store joins them only within the budget; the
/// tails held are kept as they grow during a round, and the round's end brings them back under.
struct PostingTails {
    /// One owner's last segment, as written or read.
    struct Tail {
        var id: Int64
        var count: Int
        var last: Int64
        var bytes: [UInt8]
        var positions: [UInt8]

        /// What a tail costs besides its buffers' contents: two heap blocks with their headers
        /// and its slot in the table.
        static let overhead = 160

        /// The memory it holds, as the budget counts it.
        var size: Int { bytes.capacity + positions.capacity + Self.overhead }
    }

    private var tails: [Int64: (tail: Tail, round: Int)] = [:]
    private(set) var bytes = 0
    /// The bytes the tails may hold: a tail read from the store is kept only within it, and past
    /// it at the end of a round the least recently used go.
    let budget: Int
    /// Counts `endRound()` calls; each tail keeps the round it was last used in, which orders
    /// them for leaving.
    private var round = 0
    /// Set for a round no later one follows (a catch-up's last batch): it admits no tail, and
    /// ends without sorting out which to keep, for the tails go with the writer.
    var keepsNone = false

    init(budget: Int = .max) { self.budget = budget }

    var count: Int { tails.count }

    subscript(owner: Int64) -> Tail? {
        get { tails[owner]?.tail }
        set {
            bytes -= tails[owner]?.tail.size ?? 0
            tails[owner] = newValue.map { ($0, round) }
            bytes += newValue?.size ?? 0
        }
    }

    /// Takes `owner`'s tail out, so that appending to it copies nothing.
    mutating func take(_ owner: Int64) -> Tail? {
        guard let (tail, _) = tails.removeValue(forKey: owner) else { return nil }
        bytes -= tail.size
        return tail
    }

    /// Keeps `tail`, just read from the store, as `owner`'s while the tails are within the
    /// budget, so that a batch touching many tokens the tails don't hold (a growing vocabulary's
    /// rare ones) does not hold all of theirs until the round ends.
    mutating func admit(_ tail: Tail?, for owner: Int64) {
        bytes -= tails.removeValue(forKey: owner)?.tail.size ?? 0
        guard let tail, !keepsNone, bytes + tail.size <= budget else { return }
        tails[owner] = (tail, round)
        bytes += tail.size
    }

    /// Makes room for `count` more tails at once (as many as the budget can hold), for a batch
    /// that admits that many: growing one by one placed every tail again at each doubling.
    mutating func reserve(_ count: Int) {
        guard !keepsNone else { return }
        tails.reserveCapacity(min(tails.count + count, budget / Tail.overhead))
    }

    /// Ends a round of writes (a batch). Past the budget, the tails least recently used go
    /// first (the rare tokens', which the next batch is unlikely to need), down to three
    /// quarters of the budget, so that this happens once in several rounds: the frequent
    /// tokens' tails, which every batch appends to, stay.
    mutating func endRound() {
        round += 1
        guard !keepsNone, bytes > budget else { return }
        var oldestFirst = tails.map { (owner: $0.key, round: $0.value.round, size: $0.value.tail.size) }
        oldestFirst.sort { $0.round < $1.round }
        for tail in oldestFirst {
            guard bytes > budget / 4 * 3 else { break }
            tails[tail.owner] = nil
            bytes -= tail.size
        }
    }
}
