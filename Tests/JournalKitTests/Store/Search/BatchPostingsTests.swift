import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct BatchPostingsTests {
    /// Links of a batch: each entry has some owners, in no order, with a position list each
    /// (length first, as a segment stores it) or none.
    private func links(
        entries: Int, owners: Int, withLists: Bool, seed: UInt64
    ) -> [(
        owner: Int32, document: Int64, list: [UInt8]
    )] {
        var generator = SplitMix64(seed: seed)
        var links: [(owner: Int32, document: Int64, list: [UInt8])] = []
        for entry in 0..<entries {
            let document = Int64(entry * 3 + 1)
            var chosen = Set<Int32>()
            for _ in 0..<generator.below(12) { chosen.insert(Int32(generator.below(owners))) }
            for owner in chosen.shuffled(using: &generator) {
                var list: [UInt8] = []
                if withLists {
                    let positions = (0..<(1 + generator.below(4))).map { UInt32($0 * 5 + generator.below(5)) }
                    PositionLists.append(positions, to: &list)
                }
                links.append((owner, document, list))
            }
        }
        return links
    }

    @Test(arguments: [true, false])
    func eachOwnerHasItsDocumentsInOrderWithTheirLists(withLists: Bool) {
        let owners = 40
        let links = links(entries: 500, owners: owners, withLists: withLists, seed: withLists ? 3 : 4)
        let postings = BatchPostings(owners: owners) { sink in
            for link in links { link.list.withUnsafeBufferPointer { sink(link.owner, link.document, $0) } }
        }
        for owner in 0..<owners {
            let own = links.filter { $0.owner == Int32(owner) }
            let added = postings[owner]
            #expect(Array(added.documents) == own.map(\.document))
            #expect(Array(added.positions) == own.flatMap(\.list))
        }
    }

    @Test func ownersWithoutLinksHaveNothing() {
        let postings = BatchPostings(owners: 3) { sink in
            [UInt8]([1, 7]).withUnsafeBufferPointer { sink(1, 9, $0) }
        }
        #expect(postings[0].documents.isEmpty && postings[0].positions.isEmpty)
        #expect(Array(postings[1].documents) == [9] && Array(postings[1].positions) == [1, 7])
        #expect(postings[2].documents.isEmpty && postings[2].positions.isEmpty)
    }
}
