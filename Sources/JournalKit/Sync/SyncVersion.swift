import Foundation

/// One version of one entry as sync knows it: when and where it was made, by a hybrid logical
/// clock (milliseconds of the device's wall clock, a counter within them, the device), so that
/// versions order the same on every device however their clocks disagree, and a version made
/// after another was seen sorts after it.
///
/// Invariant: the text form (`000001764500000000.00000.<device UUID>`) sorts as the versions
/// do: fixed-width milliseconds and counter, then the device as a tie-break.
struct SyncVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    let milliseconds: Int64
    let counter: Int
    let device: UUID

    var description: String {
        let ms = String(milliseconds)
        let count = String(counter)
        return String(repeating: "0", count: max(0, 18 - ms.count)) + ms + "."
            + String(repeating: "0", count: max(0, 5 - count.count)) + count + "." + device.uuidString
    }

    init(milliseconds: Int64, counter: Int, device: UUID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
    }

    /// Reads the text form; nil when `text` is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 18, parts[1].count == 5,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
            let milliseconds = Int64(parts[0]), milliseconds >= 0, let counter = Int(parts[1]), counter >= 0,
            let device = UUID(uuidString: String(parts[2])), device.uuidString == parts[2]
        else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, device: device)
    }

    static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.device.uuidString) < (rhs.milliseconds, rhs.counter, rhs.device.uuidString)
    }
}

/// A device's hybrid logical clock: each version it makes sorts after every version it made or
/// saw before, and stays near its wall clock.
struct SyncClock: Sendable, Equatable {
    private(set) var milliseconds: Int64
    private(set) var counter: Int

    /// The clock as kept in the store (`"<ms>.<counter>"`), or one that has seen nothing.
    init(stored: String?) {
        let parts = stored?.split(separator: ".") ?? []
        milliseconds = parts.count == 2 ? Int64(parts[0]) ?? 0 : 0
        counter = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
    }

    var stored: String { "\(milliseconds).\(counter)" }

    /// A new version for `device`, after every one the clock has made or seen.
    mutating func next(for device: UUID, now: Date = Date()) -> SyncVersion {
        let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if wall > milliseconds {
            (milliseconds, counter) = (wall, 0)
        } else {
            counter += 1
        }
        return SyncVersion(milliseconds: milliseconds, counter: counter, device: device)
    }

    /// Takes in a version made elsewhere: the next one made here sorts after it.
    mutating func observe(_ version: SyncVersion) {
        if (version.milliseconds, version.counter) > (milliseconds, counter) {
            (milliseconds, counter) = (version.milliseconds, version.counter)
        }
    }
}
