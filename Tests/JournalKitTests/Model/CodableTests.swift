import Foundation
import Testing

@testable import JournalKit

/// The models programs exchange go through JSON and come back equal; identities and dates
/// travel as the strings the command line prints, and a wrong one is refused.
@Suite struct CodableTests {
    @Test func modelsRoundTripThroughJSON() throws {
        let store = try TemporaryJournal()
        let entry = try store.journal.add(
            NewEntry(date: JournalDate(iso8601: "2024-05-01T08:30:00.25Z")!, text: "a #tag\u{0}", starred: true))
        let results = try store.journal.search("tag", page: PageRequest(limit: 5, offset: 0))
        let error = JournalError(.invalidInput, "line 3: bad", entry: entry.id, line: 3, file: "/tmp/x.jsonl")
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        #expect(try decoder.decode(Entry.self, from: encoder.encode(entry)) == entry)
        #expect(try decoder.decode(SearchResults.self, from: encoder.encode(results)) == results)
        #expect(try decoder.decode(JournalError.self, from: encoder.encode(error)) == error)
        #expect(
            try decoder.decode(JournalStatistics.self, from: encoder.encode(store.journal.statistics()))
                == store.journal.statistics())

        let json = try #require(String(data: encoder.encode(entry), encoding: .utf8))
        #expect(json.contains(#""date":"2024-05-01T08:30:00.25Z""#), "\(json)")
        #expect(json.contains(entry.id.uri.replacingOccurrences(of: "/", with: "\\/")), "\(json)")
    }

    @Test func wrongIdentitiesDatesAndPagesAreRefused() {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) { try decoder.decode([EntryID].self, from: Data(#"["p12"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([JournalDate].self, from: Data(#"["May 1st"]"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try decoder.decode(PageRequest.self, from: Data(#"{"limit": -1, "offset": 0}"#.utf8))
        }
    }
}
