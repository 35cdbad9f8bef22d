import Foundation
import Testing

@testable import JournalKit

/// A UUID's 16 bytes are in the order its text writes them, and read back only from 16.
@Suite struct UUIDBytesTests {
    @Test func theBytesAreInTheOrderOfTheText() throws {
        let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(
            uuid.withBytes { Array($0) } == [
                0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF,
            ])
        #expect(uuid.withBytes(UUID.init(bytes:)) == uuid)
    }

    @Test(arguments: [0, 15, 17]) func onlySixteenBytesAreAUUID(count: Int) {
        let bytes = [UInt8](repeating: 7, count: count)
        #expect(bytes.withUnsafeBytes(UUID.init(bytes:)) == nil)
    }
}
