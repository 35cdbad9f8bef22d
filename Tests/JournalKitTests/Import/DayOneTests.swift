import Foundation
import Testing
import ZIPFoundation

@testable import JournalKit

@Suite struct DayOneTests {
    /// A Day One `Journal.json` as its export writes it: Markdown with escaped punctuation,
    /// a photo's reference, tags, a star, fields the journal has no use for, an empty entry.
    static let journal = """
        {
          "metadata": {"version": "1.0"},
          "entries": [
            {"uuid": "5F1E0A9C3B2D4E6F8A7B9C0D1E2F3A4B", "creationDate": "2023-04-01T07:30:00Z", "timeZone": "Europe/Paris",
             "text": "Went to the market\\\\. Bought apples \\\\(red\\\\)\\\\!\\n\\n\\\\- milk\\n\\n![](dayone-moment://8D3C)",
             "tags": ["Food", "Work Stuff"], "starred": true, "photos": [{"identifier": "8D3C", "md5": "0f"}]},
            {"uuid": "A0B1C2D3E4F5061728394A5B6C7D8E9F", "creationDate": "2023-04-02T18:00:00Z", "text": ""},
            {"uuid": "0123456789ABCDEF0123456789ABCDEF", "creationDate": "2023-04-03T22:15:30.500Z", "text": "Plain"}
          ]
        }
        """

    @Test func readsTextAsWrittenDatesInUTCTagsStarsAndIdentity() throws {
        let entries = try DayOneJSON.entries(in: Data(Self.journal.utf8))
        #expect(entries.count == 3 && entries[1] == nil, "an entry with no text is left out")
        let read = entries.compactMap { $0 }
        #expect(
            read.map(\.entry.text) == [
                "Went to the market. Bought apples (red)!\n\n- milk\n\n![](dayone-moment://8D3C)", "Plain",
            ])
        #expect(
            read.map(\.entry.date) == [
                JournalDate(iso8601: "2023-04-01T07:30:00Z")!, JournalDate(iso8601: "2023-04-03T22:15:30.5Z")!,
            ])
        #expect(read.map(\.entry.tags) == [["Food", "Work Stuff"], []])
        #expect(read.map(\.entry.starred) == [true, false])
        #expect(
            read.map(\.entry.origin) == [
                "dayone:5F1E0A9C3B2D4E6F8A7B9C0D1E2F3A4B", "dayone:0123456789ABCDEF0123456789ABCDEF",
            ])
        #expect(read.allSatisfy { $0.sameDateAndText == nil }, "the UUID is the identity")
        #expect(read[1].location == "entry 3 (uuid 0123456789ABCDEF0123456789ABCDEF)")
    }

    @Test(arguments: [
        (#"{"entries": [{"uuid": "U1", "text": "x"}]}"#, #"entry 1 (uuid U1): missing "creationDate""#),
        (
            #"{"entries": [{"uuid": "U1", "creationDate": "2023-04-01T07:30:00Z", "text": "x"}, {"uuid": "U2", "creationDate": "April 1", "text": "y"}]}"#,
            #"entry 2 (uuid U2): bad "creationDate" "April 1" (expected ISO 8601, like 2024-05-01T07:30:00Z)"#
        ),
        (
            #"{"entries": [{"uuid": "U1", "creationDate": "2023-04-01T07:30:00Z", "text": "x", "tags": "Food"}]}"#,
            #"Day One JSON: entry 1, "tags" must be an array"#
        ),
        (#"{"metadata": {}}"#, #"Day One JSON: the document: missing "entries""#),
        ("[]", "Day One JSON: the document must be an object"),
    ])
    func namesTheEntryThatIsWrong(json: String, message: String) {
        #expect(throws: JournalError(.invalidInput, message)) { try DayOneJSON.entries(in: Data(json.utf8)) }
    }

    @Test func readsEveryJournalOfAnArchiveAndLeavesItsMediaBehind() throws {
        let url = try Self.archive([
            "Journal.json": Data(Self.journal.utf8),
            "Travel.json": Data(
                #"{"entries": [{"uuid": "T1", "creationDate": "2022-01-01T00:00:00Z", "text": "Lisbon"}]}"#.utf8),
            "photos/8d3c.jpeg": Data([0xFF, 0xD8]), "photos/notes.json": Data("not a journal".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: url) }
        let read = try DayOneArchive.entries(at: url)
        let entries = read.compactMap { $0 }
        #expect(
            entries.map(\.entry.text) == [
                "Went to the market. Bought apples (red)!\n\n- milk\n\n![](dayone-moment://8D3C)", "Plain", "Lisbon",
            ])
        #expect(entries.map(\.location).last == "Travel.json: entry 1 (uuid T1)")
        #expect(try DayOneArchive.entries(in: Data(contentsOf: url)).count == read.count)
    }

    /// Day One's tags as its users wrote them, accented and mixed-case, stay so in the journal:
    /// given tags keep their form, one tag with the same name written in a text.
    @Test func accentedAndMixedCaseTagsStayAsWritten() throws {
        let store = try TemporaryJournal()
        let file = store.directory.url.appendingPathComponent("Journal.json")
        try Data(
            """
            {"entries": [
              {"uuid": "D1", "creationDate": "2023-04-01T07:30:00Z", "text": "Un matin au #café", "tags": ["Café", "Crème Brûlée", "東京"]},
              {"uuid": "D2", "creationDate": "2023-04-02T07:30:00Z", "text": "Zürich", "tags": ["Café", "ÜBUNG"]}
            ]}
            """.utf8
        ).write(to: file)
        #expect(try store.journal.importFile(atPath: file.path).count == 2)
        let entries = try store.allEntries()
        #expect(entries.map { $0.tags.map(\.written) } == [["Café", "Crème Brûlée", "東京"], ["Café", "ÜBUNG"]])
        #expect(entries.map { $0.tags.map(\.name) } == [["cafe", "creme brulee", "東京"], ["cafe", "ubung"]])
        #expect(
            try store.journal.tags().first.map { "\($0.tag.written) \($0.entries)" } == "Café 2",
            "Café twice given, café once written")
        #expect(try store.journal.search("#cafe").total == 2)
        #expect(try store.journal.importFile(atPath: file.path).count == 0, "importing again adds nothing")
    }

    @Test func refusesAnArchiveWithoutAJournalAndOneThatIsNotZip() throws {
        let url = try Self.archive(["photos/8d3c.jpeg": Data([0xFF, 0xD8])])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(
            throws: JournalError(
                .invalidInput, "the archive holds no Day One journal (a .json file at its top, like Journal.json)")
        ) {
            try DayOneArchive.entries(at: url)
        }
        let broken = Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 40))
        let error = #expect(throws: JournalError.self) { try DayOneArchive.entries(in: broken) }
        #expect(error?.kind == .invalidInput && error?.message.hasPrefix("not a readable zip archive") == true)
    }

    /// A zip archive holding `files`, as Day One writes its export.
    static func archive(_ files: [String: Data]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dayone-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) {
                position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }
}
