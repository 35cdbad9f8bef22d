import Testing
@testable import JournalKit

@Suite struct TokenIDListTests {
    @Test func roundTripsSortedIDs() {
        let ids: [Int64] = [5, 1, 127, 128, 16_384, 1 << 40, 3]
        #expect(TokenIDList.decode(TokenIDList.encode(ids)) == ids.sorted())
        #expect(TokenIDList.decode(TokenIDList.encode([])) == [])
        #expect(TokenIDList.encode([1, 2, 3]).count == 3)
    }
}
