import Foundation

/// An entry's date: an instant, kept to the microsecond, read from ISO 8601 with any offset
/// and written back in UTC with a `Z`.
public struct JournalDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// Microseconds since 1970-01-01T00:00:00Z: the value the stores keep and sort on.
    public let microseconds: Int64

    /// The date `microseconds` after the start of 1970 UTC.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The date of `date`, to the microsecond.
    public init(_ date: Date) {
        microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The instant as Foundation's `Date` (to the precision of a `Double`).
    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1e6) }

    /// This moment.
    public static var now: JournalDate { JournalDate(Date()) }

    /// Earlier dates order first.
    public static func < (lhs: JournalDate, rhs: JournalDate) -> Bool { lhs.microseconds < rhs.microseconds }

    /// ISO 8601 in UTC: `2024-05-01T08:30:00Z`, with as many fraction digits as the instant needs.
    public var iso8601: String {
        let (days, microsecondOfDay) = microseconds.floorDivided(by: 86_400_000_000)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        let seconds = microsecondOfDay / 1_000_000
        var fraction = microsecondOfDay % 1_000_000
        var text =
            "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
            + "\(Self.pad(seconds / 3600, 2)):\(Self.pad(seconds / 60 % 60, 2)):\(Self.pad(seconds % 60, 2))"
        if fraction != 0 {
            var digits = 6
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            text += "." + Self.pad(fraction, digits)
        }
        return text + "Z"
    }

    /// The ISO 8601 form in UTC.
    public var description: String { iso8601 }

    /// The day and the minute in the local time zone, as people write them: `2024-05-01 10:30`.
    public var localDayAndMinute: String { dayAndMinute(in: .current) }

    /// The day and the minute in `timeZone`.
    func dayAndMinute(in timeZone: TimeZone) -> String {
        let (day, second) = dayAndSecond(in: timeZone)
        return "\(day) \(Self.pad(second / 3600, 2)):\(Self.pad(second / 60 % 60, 2))"
    }

    /// jrnl's default time format, `%F %r`, in the local time zone: `2024-05-01 09:30:00 PM`.
    package var localJrnlTime: String { jrnlTime(in: .current) }

    /// jrnl's default time format in `timeZone`.
    func jrnlTime(in timeZone: TimeZone) -> String {
        let (day, second) = dayAndSecond(in: timeZone)
        let hour = second / 3600
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(day) \(Self.pad(twelve, 2)):\(Self.pad(second / 60 % 60, 2)):\(Self.pad(second % 60, 2)) "
            + (hour < 12 ? "AM" : "PM")
    }

    /// The day (`2024-05-01`) in `timeZone`, and the second of that day: the calendar arithmetic
    /// of the local forms, done here rather than by Foundation's formatters (which load ICU's
    /// data for it).
    private func dayAndSecond(in timeZone: TimeZone) -> (day: String, second: Int64) {
        let offset = Int64(timeZone.secondsFromGMT(for: date))
        let seconds = microseconds.floorDivided(by: 1_000_000).quotient + offset
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        return ("\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))", secondOfDay)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension JournalDate {
    /// Reads ISO 8601: `YYYY-MM-DD`, optionally followed by `T` (or a space) and `hh:mm`,
    /// `:ss` and a fraction of any length, and an offset `Z`, `±hh:mm`, `±hhmm` or `±hh`.
    /// A date without a time is midnight; a time without an offset is UTC.
    /// Returns nil for anything else, including impossible dates such as February 30th.
    public init?(iso8601 text: String) {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2),
            (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var fraction: Int64 = 0
        var offsetSeconds: Int64 = 0
        if reader.skip("T") || reader.skip("t") || reader.skip(" ") {
            guard let hour = reader.number(digits: 2), reader.skip(":"),
                let minute = reader.number(digits: 2), hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if reader.skip(":") {
                guard let value = reader.number(digits: 2), value < 60 else { return nil }
                second = value
                if reader.skip(".") || reader.skip(",") {
                    guard let microseconds = reader.fractionMicroseconds() else { return nil }
                    fraction = microseconds
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if reader.skip("Z") || reader.skip("z") {
                offsetSeconds = 0
            } else if let sign = reader.sign() {
                guard let hours = reader.number(digits: 2), hours < 24 else { return nil }
                var minutes: Int64 = 0
                if reader.skip(":") {
                    guard let value = reader.number(digits: 2) else { return nil }
                    minutes = value
                } else if let value = reader.number(digits: 2) {
                    minutes = value
                }
                guard minutes < 60 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard reader.atEnd else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        microseconds = (days * 86_400 + secondOfDay - offsetSeconds) * 1_000_000 + fraction
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
enum CivilCalendar {
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func date(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

private struct DigitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    /// Consumes `text` (any UTF-8 sequence) when the input continues with it.
    mutating func skip(_ text: String) -> Bool {
        let expected = text.utf8
        guard bytes[position...].starts(with: expected) else { return false }
        position += expected.count
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") || skip("\u{2212}") { return -1 }  // U+2212 MINUS SIGN, as ISO 8601 allows
        return nil
    }

    mutating func number(digits count: Int) -> Int64? {
        guard position + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[position..<position + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        position += count
        return value
    }

    /// A fraction of a second of one or more digits, in microseconds (digits past the sixth dropped).
    mutating func fractionMicroseconds() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            if digits < 6 { value = value * 10 + Int64(bytes[position] - 0x30) }
            digits += 1
            position += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 6) { value *= 10 }
        return value
    }
}

private extension Int64 {
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}

extension JournalDate {
    /// Encodes the ISO 8601 form in UTC, as the command line prints it.
    public func encode(to encoder: any Encoder) throws { try StringCoding.encode(iso8601, to: encoder) }

    /// Decodes an ISO 8601 date with any offset and fraction digits.
    public init(from decoder: any Decoder) throws {
        self = try StringCoding.decode(from: decoder, expected: "an ISO 8601 date", JournalDate.init(iso8601:))
    }
}
