import Foundation

/// A date as people type it on the command line, read in a time zone: `now`, `today`,
/// `yesterday`, `3 days ago`, `monday`, `last monday`, `may 1`, `1 may 2024`, `may 2024`,
/// `2024`, `2024-05-01`, `2024-05`, each optionally followed by a time (`9pm`, `9:30`, `21:30:15`),
/// `this week` or `last month` (week, month or year), or ISO 8601 with an offset.
///
/// A phrase names a span: a day, a week (from Monday), a month or a year (a phrase with a time,
/// or an ISO instant, names that instant). Filters use the span (`--to may` takes all of May); an entry's date uses
/// ``instant``. A date or time without an offset is in the given time zone.
public struct DatePhrase: Sendable, Equatable {
    /// The first instant of the span.
    public let start: JournalDate
    /// The instant just after the span (for an instant, one microsecond after it).
    public let end: JournalDate
    /// The instant to file an entry under: the time given; else, for a day named relative to
    /// today (`yesterday`, `3 days ago`, `monday`), that day at the current time of day; for a
    /// calendar date, a month or a year, its first instant.
    public let instant: JournalDate

    /// Reads `text` as of `now` in `timeZone`; anything not understood is a usage error that
    /// quotes it.
    public init(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) throws(JournalError) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let phrase = Self.read(text, now: now, calendar: calendar) else {
            throw .usage(
                "the date \"\(text)\" is not understood (try 2024-05-01, 2024-05-01 9:30, yesterday, 3 days ago, "
                    + "last monday, last month, may 1, may 2024, 2024 or now)")
        }
        self = phrase
    }

    private init(start: Date, end: Date, instant: Date) {
        self.start = JournalDate(start)
        self.end = JournalDate(end)
        self.instant = JournalDate(instant)
    }

    /// An instant: the span from it to a microsecond later.
    private init(instant: Date) {
        self.init(start: instant, end: instant.addingTimeInterval(1e-6), instant: instant)
    }

    private enum Unit {
        /// A day named relative to today.
        case relativeDay
        case day, month, year
    }

    private static func read(_ text: String, now: Date, calendar: Calendar) -> DatePhrase? {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if lowered.contains("t") || lowered.hasSuffix("z"), lowered.first?.isNumber == true, lowered.contains(":") {
            // ISO 8601 with a T: with an offset it is exact; without one, local time.
            if let exact = JournalDate(iso8601: text), hasOffset(lowered) {
                return DatePhrase(instant: exact.date)
            }
            // Without an offset, the T is a space; with neither (a stray Z), it is not ISO 8601.
            guard lowered.contains("t") else { return nil }
            return read(lowered.replacingOccurrences(of: "t", with: " "), now: now, calendar: calendar)
        }
        var words = lowered.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        var time: (hour: Int, minute: Int, second: Int)?
        if let last = words.last, let parsed = Self.time(last) {
            time = parsed
            words.removeLast()
        } else if words.count >= 2, ["am", "pm"].contains(words[words.count - 1]),
            let parsed = Self.time(words[words.count - 2] + words[words.count - 1])
        {
            time = parsed
            words.removeLast(2)
        }
        if words == ["now"] {
            return time == nil ? DatePhrase(instant: now) : nil
        }
        if words.count == 2, ["last", "this"].contains(words[0]) {
            let units: [String: Calendar.Component] = ["week": .weekOfYear, "month": .month, "year": .year]
            if let component = units[words[1]] {
                return time == nil ? span(component, back: words[0] == "last" ? 1 : 0, from: now, calendar) : nil
            }
        }
        guard !words.isEmpty || time != nil else { return nil }
        guard let (day, unit) = Self.day(words, now: now, calendar: calendar) else { return nil }
        let start = calendar.startOfDay(for: day)
        if let time {
            guard unit == .day || unit == .relativeDay,
                let instant = calendar.date(
                    bySettingHour: time.hour, minute: time.minute, second: time.second, of: start)
            else { return nil }
            return DatePhrase(instant: instant)
        }
        let component: Calendar.Component = unit == .month ? .month : unit == .year ? .year : .day
        guard let end = calendar.date(byAdding: component, value: 1, to: start) else { return nil }
        let instant =
            unit == .relativeDay
            ? start.addingTimeInterval(now.timeIntervalSince(calendar.startOfDay(for: now))) : start
        return DatePhrase(start: start, end: end, instant: min(instant, end.addingTimeInterval(-1e-6)))
    }

    /// The week (from Monday), month or year `back` of them before the one `now` is in.
    private static func span(
        _ component: Calendar.Component, back: Int, from now: Date, _ calendar: Calendar
    ) -> DatePhrase? {
        var calendar = calendar
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        guard let reference = calendar.date(byAdding: component, value: -back, to: now),
            let interval = calendar.dateInterval(of: component, for: reference)
        else { return nil }
        return DatePhrase(start: interval.start, end: interval.end, instant: interval.start)
    }

    /// The first day of what `words` name, and whether they name a day, a month or a year.
    private static func day(_ words: [String], now: Date, calendar: Calendar) -> (Date, Unit)? {
        let today = calendar.startOfDay(for: now)
        let current = calendar.dateComponents([.year, .month, .day, .weekday], from: now)
        func date(_ year: Int, _ month: Int, _ day: Int) -> Date? {
            let components = DateComponents(year: year, month: month, day: day)
            guard let date = calendar.date(from: components),
                calendar.dateComponents([.year, .month, .day], from: date) == components
            else { return nil }
            return date
        }
        switch words.count {
        case 0:
            return (today, .relativeDay)
        case 1:
            let word = words[0]
            switch word {
            case "today": return (today, .relativeDay)
            case "yesterday": return calendar.date(byAdding: .day, value: -1, to: today).map { ($0, .relativeDay) }
            case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today).map { ($0, .relativeDay) }
            default: break
            }
            if let weekday = weekdays.firstIndex(where: { $0.hasPrefix(word) && word.count >= 3 }) {
                let back = ((current.weekday! - 1) - weekday + 7) % 7
                return calendar.date(byAdding: .day, value: -back, to: today).map { ($0, .relativeDay) }
            }
            if let month = month(word) {
                let year = month > current.month! ? current.year! - 1 : current.year!
                return date(year, month, 1).map { ($0, .month) }
            }
            if word.count == 4, let year = Int(word), year > 0 { return date(year, 1, 1).map { ($0, .year) } }
            let parts = word.split(separator: "-", omittingEmptySubsequences: false)
            if parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
                let day = Int(parts[2])
            {
                return date(year, month, day).map { ($0, .day) }
            }
            if parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]),
                let month = Int(parts[1])
            {
                return date(year, month, 1).map { ($0, .month) }
            }
            return nil
        case 2:
            if words[0] == "last",
                let weekday = weekdays.firstIndex(where: { $0.hasPrefix(words[1]) && words[1].count >= 3 })
            {
                let back = ((current.weekday! - 1) - weekday + 6) % 7 + 1
                return calendar.date(byAdding: .day, value: -back, to: today).map { ($0, .relativeDay) }
            }
            if let month = month(words[0]), let year = Int(words[1]), words[1].count == 4 {
                return date(year, month, 1).map { ($0, .month) }
            }
            guard let (month, day) = monthAndDay(words[0], words[1]) else { return nil }
            // The most recent such day: this year's, or last year's when this year's is still ahead.
            guard let thisYear = date(current.year!, month, day) else {
                return date(current.year! - 1, month, day).map { ($0, .day) }
            }
            return (thisYear > today ? date(current.year! - 1, month, day) : thisYear).map { ($0, .day) }
        case 3:
            if words[2] == "ago", let count = Int(words[0]), count >= 0 {
                let units: [String: (Calendar.Component, Int)] = [
                    "day": (.day, 1), "days": (.day, 1), "week": (.day, 7), "weeks": (.day, 7),
                    "month": (.month, 1), "months": (.month, 1), "year": (.year, 1), "years": (.year, 1),
                ]
                guard let (component, size) = units[words[1]] else { return nil }
                return calendar.date(byAdding: component, value: -count * size, to: today).map { ($0, .relativeDay) }
            }
            guard let year = Int(words[2]), words[2].count == 4, let (month, day) = monthAndDay(words[0], words[1])
            else { return nil }
            return date(year, month, day).map { ($0, .day) }
        default:
            return nil
        }
    }

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// A month's number from its name or an abbreviation of at least three letters.
    private static func month(_ word: String) -> Int? {
        let word = word.hasSuffix(".") ? String(word.dropLast()) : word
        guard word.count >= 3, let index = months.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
        return index + 1
    }

    /// `may 1` or `1 may`.
    private static func monthAndDay(_ first: String, _ second: String) -> (month: Int, day: Int)? {
        func day(_ word: String) -> Int? {
            let digits = word.prefix { $0.isNumber }
            let suffix = word.dropFirst(digits.count)
            guard !digits.isEmpty, ["", "st", "nd", "rd", "th"].contains(suffix), let day = Int(digits),
                (1...31).contains(day)
            else {
                return nil
            }
            return day
        }
        if let month = month(first), let day = day(second) { return (month, day) }
        if let day = day(first), let month = month(second) { return (month, day) }
        return nil
    }

    /// `9pm`, `9:30pm`, `21:30`, `21:30:15`.
    private static func time(_ word: String) -> (hour: Int, minute: Int, second: Int)? {
        var text = Substring(word)
        var meridiem: String?
        for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix
            text = text.dropLast(2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), meridiem != nil || parts.count >= 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            var hour = Int(parts[0]), let minute = parts.count > 1 ? Int(parts[1]) : 0,
            let second = parts.count > 2 ? Int(parts[2]) : 0, minute < 60, second < 60
        else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        return (hour, minute, second)
    }

    private static func hasOffset(_ text: String) -> Bool {
        guard let timeStart = text.firstIndex(where: { $0 == "t" || $0 == " " }) else { return false }
        let time = text[timeStart...]
        return time.hasSuffix("z") || time.contains("+") || time.contains("-") || time.contains("−")
    }
}
