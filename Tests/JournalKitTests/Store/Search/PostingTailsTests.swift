import Testing

@testable import JournalKit

@Suite struct PostingTailsTests {
    /// A tail of about `size` bytes.
    private func tail(_ id: Int64, size: Int) -> PostingTails.Tail {
        PostingTails.Tail(
            id: id, count: 1, last: id, bytes: [UInt8](repeating: 1, count: size / 2),
            positions: [UInt8](repeating: 2, count: size - size / 2))
    }

    /// Tails of exactly one size: array capacities round up as the allocator finds room, so
    /// these share one pair of buffers.
    private let template = PostingTails.Tail(
        id: 0, count: 1, last: 0, bytes: [UInt8](repeating: 1, count: 500), positions: [UInt8](repeating: 2, count: 500)
    )

    private func sameSizeTail(_ id: Int64) -> PostingTails.Tail {
        var tail = template
        (tail.id, tail.last) = (id, id)
        return tail
    }

    @Test func bytesFollowEveryTailSetReplacedTakenOrRemoved() {
        var tails = PostingTails()
        let (a, b, c) = (tail(1, size: 1_000), tail(2, size: 5_000), tail(3, size: 300))
        tails[1] = a
        tails[2] = b
        #expect(tails.bytes == a.size + b.size)
        tails[1] = c
        #expect(tails.bytes == c.size + b.size)
        #expect(tails.take(2)?.id == 2)
        #expect(tails.take(2) == nil)
        #expect(tails.bytes == c.size && tails.count == 1)
        tails[1] = nil
        #expect(tails.bytes == 0 && tails.count == 0)
    }

    @Test func tailsWithNearlyEmptyBuffersStillCountTowardsTheBudget() {
        // A rare token's tail holds a few bytes; a growing vocabulary brings more of them every
        // batch, and what each costs beside its bytes must bound their number.
        var tails = PostingTails(budget: 100 * PostingTails.Tail.overhead)
        for id in Int64(1)...1_000 { tails[id] = tail(id, size: 2) }
        #expect(tails.bytes >= 1_000 * PostingTails.Tail.overhead)
        tails.endRound()
        #expect(tails.count <= 100)
    }

    @Test func pastTheBudgetTheLeastRecentlyUsedTailsGoDownToThreeQuartersOfIt() {
        let perTail = template.size
        var tails = PostingTails(budget: 8 * perTail)
        for id in Int64(1)...8 { tails[id] = sameSizeTail(id) }
        #expect(tails.bytes == 8 * perTail)
        tails.endRound()
        #expect(tails.count == 8, "within the budget, every tail stays")

        // The next round uses three of them again and adds two: ten tails against a budget of
        // eight leaves six, the five of this round and one of the round before.
        for id: Int64 in [2, 5, 7] { tails[id] = tails.take(id) }
        for id: Int64 in [11, 12] { tails[id] = sameSizeTail(id) }
        tails.endRound()
        #expect(tails.count == 6 && tails.bytes == 6 * perTail)
        for id: Int64 in [2, 5, 7, 11, 12] { #expect(tails[id]?.id == id) }

        // A round whose own tails pass the budget keeps some of them, never more than the budget.
        for id: Int64 in 20...29 { tails[id] = sameSizeTail(id) }
        tails.endRound()
        #expect(tails.count == 6 && tails.bytes == 6 * perTail)
        #expect(tails[2] == nil && tails[11] == nil, "the older rounds' tails went first")
    }

    @Test func aTailReadFromTheStoreIsKeptOnlyWithinTheBudget() {
        let perTail = template.size
        var tails = PostingTails(budget: 3 * perTail)
        for id: Int64 in 1...3 { tails.admit(sameSizeTail(id), for: id) }
        #expect(tails.count == 3)
        tails.admit(sameSizeTail(4), for: 4)
        #expect(tails[4] == nil && tails.bytes == 3 * perTail, "past the budget, a tail read is not kept")
        tails.admit(sameSizeTail(2), for: 2)
        #expect(tails[2] != nil && tails.count == 3, "one that replaces its owner's own fits in its place")
        tails.admit(nil, for: 3)
        #expect(tails[3] == nil && tails.bytes == 2 * perTail)
        // A tail the writer held and appended to is kept whatever the budget, until the round ends.
        tails[5] = sameSizeTail(5)
        tails[6] = sameSizeTail(6)
        #expect(tails.count == 4 && tails.bytes == 4 * perTail)
    }

    /// A round no other follows admits no tail read and ends keeping what it holds unsorted:
    /// the tails go with the writer. A round after it all the same keeps tails again.
    @Test func aRoundThatKeepsNoneAdmitsNoneAndSortsNothingOut() {
        let perTail = template.size
        var tails = PostingTails(budget: 2 * perTail)
        tails.admit(sameSizeTail(1), for: 1)
        tails.keepsNone = true
        tails.reserve(1_000)
        tails.admit(sameSizeTail(2), for: 2)
        tails.admit(sameSizeTail(1), for: 1)
        #expect(
            tails[2] == nil && tails[1] == nil && tails.bytes == 0,
            "an admitted tail is not kept, its owner's old one goes")
        for id: Int64 in 3...5 { tails[id] = sameSizeTail(id) }
        tails.endRound()
        #expect(tails.count == 3, "past the budget, nothing was sorted out")
        tails.keepsNone = false
        tails.endRound()
        #expect(tails.count == 1 && tails.bytes <= 2 * perTail)
        tails.admit(sameSizeTail(6), for: 6)
        #expect(tails[6] != nil)
    }
}
