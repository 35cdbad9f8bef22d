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

    /// Reads the text form; nil when `text` is not exactly one (digits, dots, an upper-case UUID).
    init?(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> (Int64, Int)? in
            guard bytes.count == 61, bytes[18] == UInt8(ascii: "."), bytes[24] == UInt8(ascii: ".") else { return nil }
            var milliseconds: Int64 = 0
            var counter = 0
            for index in 0..<24 where index != 18 {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if index < 18 {
                    milliseconds = milliseconds * 10 + Int64(digit)
                } else {
                    counter = counter * 10 + Int(digit)
                }
            }
            // The UUID as `uuidString` writes it, upper-case: one version has one form.
            guard !bytes[25...].contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
                return nil
            }
            return (milliseconds, counter)
        }
        guard let (milliseconds, counter) = parsed ?? nil,
            let device = UUID(uuidString: String(text.suffix(36)))
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
