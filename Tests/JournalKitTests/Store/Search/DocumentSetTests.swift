import Testing

@testable import JournalKit

@Suite struct DocumentSetTests {
    @Test func insertsCountsAndListsMembers() {
        var set = DocumentSet(maximum: 200)
        for number: Int64 in [200, 1, 64, 63, 1, 130] { set.insert(number) }
        #expect(set.count == 5)
        #expect(set.members == [1, 63, 64, 130, 200])
        #expect(set.contains(64) && !set.contains(65) && !set.contains(-1) && !set.contains(10_000))
    }

    @Test func ignoresNumbersBeyondItsMaximum() {
        var set = DocumentSet(maximum: 10)
        set.insert(1_000)
        set.insert(-3)
        #expect(set.isEmpty)
    }

    @Test func intersects() {
        var a = DocumentSet(maximum: 300), b = DocumentSet(maximum: 100)
        for number: Int64 in [5, 70, 99, 250] { a.insert(number) }
        for number: Int64 in [70, 99, 100] { b.insert(number) }
        a.formIntersection(b)
        #expect(a.members == [70, 99])
    }

    @Test(arguments: [(0, 0), (3, 70), (64, 127), (63, 64), (1, 200), (130, 5_000), (-10, 2)] as [(Int64, Int64)])
    func insertsRangesAWordAtATime(low: Int64, high: Int64) {
        var set = DocumentSet(maximum: 200)
        set.insert(range: low...high)
        let expected = (max(low, 0)...min(high, 255)).filter { $0 <= 255 }
        // The set holds numbers up to its last word's end (255 for a maximum of 200).
        #expect(set.members == expected)
        #expect(set.bounds == expected.first.map { $0...expected.last! })
    }

    @Test func boundsAreNilWhenEmpty() {
        #expect(DocumentSet(maximum: 500).bounds == nil)
    }
}

@Suite struct DocumentSetRangeTests {
    /// Against the obvious answer, for ranges within a word, across words, at the ends, empty,
    /// negative and past the maximum, in a set with gaps.
    @Test func containsAllIsEveryMemberOfTheRange() {
        var set = DocumentSet(maximum: 300)
        set.insert(range: 10...127)
        set.insert(range: 129...200)
        set.insert(range: 230...255)
        let members = Set(set.members)
        for (low, high) in [
            (10, 11), (10, 128), (129, 201), (12, 60), (64, 128), (129, 192), (230, 256), (230, 300), (5, 5), (-1, 3),
            (140, 141),
        ]
            as [(Int64, Int64)]
        {
            #expect(set.containsAll(low..<high) == (low..<high).allSatisfy(members.contains), "\(low)..<\(high)")
        }
    }
}
