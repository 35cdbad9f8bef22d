import Foundation
import Testing

@testable import JournalKit

@Suite struct JrnlJSONTests {
    /// jrnl's JSON export as `jrnl --export json` writes it (indented, tag counts first).
    static let export = """
        {
          "tags": {"@tagone": 1, "@c++": 1},
          "entries": [
            {"title": "Entry the first.", "body": "Lorem @tagone dolor.\\n\\nSecond paragraph.", "date": "2020-08-29",
             "time": "11:11", "tags": ["@tagone"], "starred": false},
            {"title": "Learning @c++ today.", "body": "", "date": "2021-01-05", "time": "08:00", "tags": ["@c++"], "starred": true},
            {"title": "", "body": "", "date": "2021-01-06", "time": "08:00", "tags": [], "starred": false}
          ]
        }
        """

    @Test(arguments: [
        ("Europe/Paris", ["2020-08-29T09:11:00Z", "2021-01-05T07:00:00Z"]),
        ("America/New_York", ["2020-08-29T15:11:00Z", "2021-01-05T13:00:00Z"]),
    ])
    func readsTitleBodyDateTagsAndStar(zone: String, dates: [String]) throws {
        let entries = try JrnlJSON.entries(
            in: Data(Self.export.utf8), timeZone: try #require(TimeZone(identifier: zone)))
        #expect(entries.count == 3 && entries[2] == nil)
        let read = entries.compactMap { $0 }
        #expect(
            read.map(\.entry.text) == [
                "Entry the first.\nLorem @tagone dolor.\n\nSecond paragraph.", "Learning @c++ today.",
            ])
        #expect(read.map(\.entry.date) == dates.map { JournalDate(iso8601: $0)! })
        #expect(read.map(\.entry.starred) == [false, true])
        // @tagone is in the text as the journal reads it; jrnl's @c++ is not (the journal reads #c), so it is given.
        #expect(read.map(\.entry.tags) == [[], ["@c++"]])
        #expect(read.map { $0.sameDateAndText?.precision } == [60_000_000, 60_000_000])
    }

    @Test(arguments: [
        (#"{"entries": [{"title": "x", "time": "10:00"}]}"#, #"jrnl JSON: entry 1: missing "date""#),
        (
            #"{"entries": [{"title": "x", "date": "2020-01-01"}, {"title": "y", "date": "yesterday"}]}"#,
            #"entry 2: bad date "yesterday" (expected "date": "2024-05-01", "time": "09:30")"#
        ),
        (
            #"{"entries": [{"title": "x", "date": "2020-01-01", "starred": "yes"}]}"#,
            #"jrnl JSON: entry 1, "starred" must be true or false"#
        ),
        (#"{"entries": {}}"#, #"jrnl JSON: "entries" must be an array"#),
        (#"{"entries": [{"title": "x", "#, "jrnl JSON: malformed JSON"),
    ])
    func namesTheEntryThatIsWrong(json: String, message: String) {
        #expect(throws: JournalError(.invalidInput, message)) {
            try JrnlJSON.entries(in: Data(json.utf8), timeZone: .gmt)
        }
    }
}
