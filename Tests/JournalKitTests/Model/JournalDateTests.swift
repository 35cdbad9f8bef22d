import Foundation
import Testing

@testable import JournalKit

@Suite struct JournalDateTests {
    @Test(arguments: [
        ("2024-05-01T08:30:00Z", "2024-05-01T08:30:00Z"),
        ("2024-05-01T08:30:00+02:00", "2024-05-01T06:30:00Z"),
        ("2024-05-01T08:30:00-0530", "2024-05-01T14:00:00Z"),
        ("2024-05-01T23:30:00-01", "2024-05-02T00:30:00Z"),
        ("2024-05-01T08:30:00\u{2212}02:00", "2024-05-01T10:30:00Z"),
        ("2024-05-01T08:30Z", "2024-05-01T08:30:00Z"),
        ("2024-05-01 08:30:00z", "2024-05-01T08:30:00Z"),
        ("2024-05-01", "2024-05-01T00:00:00Z"),
        ("2024-05-01T08:30:00.5Z", "2024-05-01T08:30:00.5Z"),
        ("2024-05-01T08:30:00,123456789Z", "2024-05-01T08:30:00.123456Z"),
        ("2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"),
        ("1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
    ])
    func readsISO8601AndWritesUTC(input: String, expected: String) throws {
        let date = try #require(JournalDate(iso8601: input))
        #expect(date.iso8601 == expected)
        #expect(JournalDate(iso8601: date.iso8601) == date)
    }

    @Test(arguments: [
        "", "2024", "2024-5-1", "2024-13-01", "2024-00-10", "2023-02-29", "2024-02-30", "2024-04-31",
        "2024-05-01T24:00:00Z", "2024-05-01T08:60:00Z", "2024-05-01T08:30:60Z", "2024-05-01T08:30:00.Z",
        "2024-05-01T08:30:00+25:00", "2024-05-01T08:30:00 ", "2024-05-01T08", "yesterday", "２０２４-05-01",
        "2024-05-01T08:30:00\u{2013}02:00",
        "2024-05-01T08:30:00é",
    ])
    func refusesAnythingElse(input: String) {
        #expect(JournalDate(iso8601: input) == nil)
    }

    @Test func knowsTheEpoch() {
        #expect(JournalDate(iso8601: "1970-01-01T00:00:00Z")?.microseconds == 0)
        #expect(JournalDate(iso8601: "2000-03-01T00:00:00Z")?.microseconds == 951_868_800_000_000)
    }
}

@Suite struct EntryIDTests {
    @Test func roundTripsItsURI() throws {
        let id = EntryID(storeID: UUID(uuidString: "55158B15-15E5-463D-990B-B70814FB7A27")!, number: 42)
        #expect(id.uri == "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p42")
        #expect(EntryID(uri: id.uri) == id)
        #expect(id.shortName == "p42")
    }

    @Test func readsAStoreWrittenInLowerCase() {
        let id = EntryID(storeID: UUID(uuidString: "55158B15-15E5-463D-990B-B70814FB7A27")!, number: 7)
        #expect(EntryID(uri: "x-journal://55158b15-15e5-463d-990b-b70814fb7a27/Entry/p7") == id)
    }

    @Test(arguments: [
        "", "p42", "x-journal://not-a-uuid/Entry/p1", "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/42",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p0",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Other/p1",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p1/x",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p+5",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p99999999999999999999",
        "x-journal://55158B15-15E5-463D-990B-B70814FB7A27X/Entry/p1",
        "x-journal://55158B15_15E5-463D-990B-B70814FB7A27/Entry/p1",
        "http://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p1",
    ])
    func refusesOtherStrings(text: String) {
        #expect(EntryID(uri: text) == nil)
    }
}

/// The local day and minute a result line shows, and jrnl's time an export writes, agree with
/// Foundation's formatter in zones
/// east and west, half-hour and quarter-hour ones, across changes of daylight saving time,
/// before 1970 and in a zone's local mean time of the nineteenth century.
@Suite struct LocalDayAndMinuteTests {
    @Test(arguments: [
        "UTC", "Europe/Paris", "America/New_York", "America/St_Johns", "Asia/Kolkata", "Asia/Kathmandu",
        "Pacific/Chatham", "Australia/Lord_Howe", "Africa/Monrovia", "Pacific/Kiritimati",
    ])
    func agreesWithFoundationsFormatter(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let jrnl = DateFormatter()
        jrnl.locale = Locale(identifier: "en_US_POSIX")
        jrnl.timeZone = zone
        jrnl.dateFormat = "yyyy-MM-dd hh:mm:ss a"
        let instants = [
            "1850-06-01T12:00:00Z", "1900-01-01T00:00:00Z", "1969-12-31T23:59:59.5Z", "1970-01-01T00:00:00Z",
            "2024-03-10T06:59:59Z", "2024-03-10T07:00:00Z", "2024-03-31T00:59:00Z", "2024-03-31T01:00:00Z",
            "2024-10-27T00:30:00Z", "2024-10-27T01:30:00Z", "2024-11-03T05:30:00Z", "2024-11-03T06:30:00Z",
            "2024-02-29T23:45:00Z", "2099-12-31T23:59:00Z", "2024-05-01T00:00:00Z", "2024-05-01T12:00:00Z",
            "2024-05-01T11:59:59Z", "2024-05-01T23:59:59Z",
        ]
        for text in instants {
            let date = try #require(JournalDate(iso8601: text))
            #expect(date.dayAndMinute(in: zone) == formatter.string(from: date.date), "\(text) in \(zoneName)")
            #expect(date.jrnlTime(in: zone) == jrnl.string(from: date.date), "\(text) in \(zoneName)")
        }
    }
}
