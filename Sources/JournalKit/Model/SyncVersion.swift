import Foundation

/// One version of one entry as sync knows it: when and where it was made, by a hybrid logical
/// clock (milliseconds of the device's wall clock, a counter within them, the device), so that
/// versions order the same on every device however their clocks disagree, and a version made
/// after another was seen sorts after it.
///
/// Invariant: the text form (`000001764500000000.00000.<device UUID>`) sorts as the versions
/// do: fixed-width milliseconds and counter, then the device as a tie-break. A version is its
/// text: two are equal when their texts are.
struct SyncVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    let milliseconds: Int64
    let counter: Int
    let device: UUID
    /// The text form, made once: a version is read from it and written as it many times.
    let description: String

    /// The most a counter can count within one millisecond: its text has five digits.
    static let counterLimit = 99_999

    /// A version of `milliseconds` (from 0) and `counter` (from 0 to ``counterLimit``).
    init(milliseconds: Int64, counter: Int, device: UUID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
        let (ms, count) = (String(milliseconds), String(counter))
        description =
            String(repeating: "0", count: max(0, 18 - ms.count)) + ms + "."
            + String(repeating: "0", count: max(0, 5 - count.count)) + count + "." + device.uuidString
    }

    /// Reads the text form; nil when `text` is not exactly one (digits, dots, an upper-case UUID).
    init?(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> (Int64, Int, UUID)? in
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
            // Upper-case digits only: one version has one form.
            guard let device = UUID(hyphenatedHex: bytes[25...], lowercase: false) else { return nil }
            return (milliseconds, counter, device)
        }
        guard let (milliseconds, counter, device) = parsed ?? nil else { return nil }
        (self.milliseconds, self.counter, self.device, description) = (milliseconds, counter, device, text)
    }

    static func == (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        lhs.description == rhs.description
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
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

    /// A new version for `device`, after every one the clock has made or seen. A counter that
    /// has counted all it can within one millisecond moves the clock on to the next.
    mutating func next(for device: UUID, now: Date = Date()) -> SyncVersion {
        let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if wall > milliseconds {
            (milliseconds, counter) = (wall, 0)
        } else if counter < SyncVersion.counterLimit {
            counter += 1
        } else {
            (milliseconds, counter) = (milliseconds + 1, 0)
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
