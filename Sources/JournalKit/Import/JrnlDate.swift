import Foundation

/// A date as jrnl writes it: the local date and time, in the time format of its configuration
/// (`2024-05-01 09:30` by its older default, `2024-05-01 09:30:00 AM` by its current one),
/// read in the local time zone.
package struct JrnlDate: Sendable, Equatable {
    /// The instant.
    package let date: JournalDate
    /// How precisely it was written, in microseconds: a minute, a second, or a day (a date
    /// alone).
    package let precision: Int64

    /// Reads `text` in `timeZone`; nil unless it starts with a date `YYYY-MM-DD` and the rest
    /// is a time.
    package init?(_ text: String, timeZone: TimeZone = .current) {
        let bytes = Array(text.utf8)
        let pattern: [Bool] = [true, true, true, true, false, true, true, false, true, true]  // digit or '-'
        guard bytes.count >= pattern.count,
            zip(bytes, pattern).allSatisfy({ byte, isDigit in isDigit ? (0x30...0x39).contains(byte) : byte == 0x2D })
        else { return nil }
        guard let phrase = try? DatePhrase(text, timeZone: timeZone) else { return nil }
        date = phrase.instant
        let colons = text.count { $0 == ":" }
        precision =
            colons == 0 ? phrase.end.microseconds - phrase.start.microseconds : colons == 1 ? 60_000_000 : 1_000_000
    }
}
