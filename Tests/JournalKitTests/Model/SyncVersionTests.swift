import Foundation
import Testing

@testable import JournalKit

/// Versions read back as written, sort as their text does, and a device's clock makes each one
/// after every one it made or saw, whatever its wall clock does.
@Suite struct SyncVersionTests {
    private let device = UUID(uuidString: "0A1B2C3D-0000-4000-8000-00000000ABCD")!

    @Test func aVersionReadsBackAndSortsAsItsText() {
        let versions = [
            SyncVersion(milliseconds: 0, counter: 0, device: device),
            SyncVersion(milliseconds: 1_764_500_000_000, counter: 0, device: device),
            SyncVersion(milliseconds: 1_764_500_000_000, counter: 7, device: device),
            SyncVersion(
                milliseconds: 1_764_500_000_000, counter: 7,
                device: UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000000")!),
            SyncVersion(milliseconds: 999_999_999_999_999_999, counter: 99_999, device: device),
        ]
        for version in versions { #expect(SyncVersion(version.description) == version) }
        #expect(versions == versions.sorted())
        #expect(versions.map(\.description) == versions.map(\.description).sorted())
    }

    @Test(arguments: [
        "", "1.2.3", "000001764500000000.00000.0a1b2c3d-0000-4000-8000-00000000abcd",
        "00000176450000000x.00000.0A1B2C3D-0000-4000-8000-00000000ABCD",
        "000001764500000000-00000.0A1B2C3D-0000-4000-8000-00000000ABCD",
        "000001764500000000.00000.0A1B2C3D-0000-4000-8000-00000000ABCDE",
        "000001764500000000.00000.not-a-uuid-at-all-but-36-characters",
        "000001764500000000.00000.0A1B2C3D0-000-4000-8000-00000000ABCD",
        "000001764500000000.00000.0A1B2C3D-0000-4000-8000-00000000ABCG",
    ])
    func anythingElseIsNoVersion(text: String) {
        #expect(SyncVersion(text) == nil)
    }

    @Test func theClockMovesOnWhateverTheWallClockDoes() {
        var clock = SyncClock(stored: nil)
        let now = Date(timeIntervalSince1970: 1_764_500_000)
        let first = clock.next(for: device, now: now)
        let second = clock.next(for: device, now: now)
        let third = clock.next(for: device, now: now.addingTimeInterval(-3_600))
        #expect(first < second && second < third)
        // A version made elsewhere, an hour ahead: the next one made here comes after it.
        let ahead = SyncVersion(milliseconds: first.milliseconds + 3_600_000, counter: 4, device: UUID())
        clock.observe(ahead)
        #expect(clock.next(for: device, now: now) > ahead)
        #expect(SyncClock(stored: clock.stored) == clock)
    }

    /// A journal that saw a version from a clock far ahead, then sends 100,000 entries, makes
    /// more versions within one millisecond than a counter's five digits hold.
    @Test func aClockThatCountsPastWhatAMillisecondHoldsMovesOnAndEveryVersionReadsBack() {
        var clock = SyncClock(stored: nil)
        let now = Date(timeIntervalSince1970: 1_764_500_000)
        let versions = (0...SyncVersion.counterLimit + 10).map { _ in clock.next(for: device, now: now) }
        #expect(versions.allSatisfy { SyncVersion($0.description) == $0 })
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(versions.last?.milliseconds == 1_764_500_000_001 && versions.last?.counter == 9)
    }
}
