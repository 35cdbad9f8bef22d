import Testing

@testable import JournalKit

@Suite struct DeltaListTests {
    @Test func roundTripsSortedValues() {
        let values: [Int64] = [1, 2, 3, 130, 20_000, 1 << 40]
        #expect(DeltaList.decode(DeltaList.encode(values)) == values)
        #expect(DeltaList.decode(DeltaList.encode([])) == [])
    }

    @Test func denseValuesTakeAByteEach() {
        #expect(DeltaList.encode([1, 2, 3]).count == 3)
        #expect(DeltaList.encode(Array(1...1_000)).count == 1_000)
    }

    @Test func forEachVisitsInOrder() {
        var seen: [Int64] = []
        DeltaList.forEach(in: DeltaList.encode([5, 9, 300])) { seen.append($0) }
        #expect(seen == [5, 9, 300])
    }
}
