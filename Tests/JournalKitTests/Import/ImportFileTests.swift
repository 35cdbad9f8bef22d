import Foundation
import Synchronization
import Testing

@testable import JournalKit

/// Importing whole files through the journal: each format told apart by its content, imported
/// once, adding nothing the second time, and, when bad, leaving the journal as it was.
@Suite struct ImportFileTests {
    /// A sample of each format, with the entries it holds.
    static let samples: [(name: String, format: ImportFormat, data: Data, entries: Int)] = [
        (
            "entries.jsonl", .jsonl,
            Data(#"{"text": "one"}"#.utf8 + [0x0A] + #"{"text": "two", "date": "2024-05-01T08:30:00Z"}"#.utf8), 2
        ),
        ("journal.txt", .jrnlText, Data(JrnlTextTests.journal.utf8), 3),
        ("export.json", .jrnlJSON, Data(JrnlJSONTests.export.utf8), 2),
        ("Journal.json", .dayOne, Data(DayOneTests.journal.utf8), 2),
    ]

    /// The same formats, each broken at its last entry.
    static let broken: [(name: String, data: String, message: String)] = [
        ("entries.jsonl", "{\"text\": \"one\"}\n{\"text\": 2}", #"line 2: "text" must be a string"#),
        ("journal.txt", "[2020-08-29 11:11] fine\n[2020-08-30 11:11] \u{FFFF}", "line 2: invalid UTF-8"),
        (
            "export.json",
            #"{"tags": {}, "entries": [{"title": "a", "date": "2020-01-01"}, {"title": "b", "date": "soon"}]}"#,
            "entry 2: bad date"
        ),
        (
            "Journal.json",
            #"{"metadata": {}, "entries": [{"uuid": "U1", "creationDate": "2023-04-01T07:30:00Z", "text": "a"}, {"uuid": "U2", "text": "b"}]}"#,
            #"entry 2 (uuid U2): missing "creationDate""#
        ),
        // Cut short: told by the keys they start with, refused by their own readers.
        (
            "cut-jrnl.json",
            #"{"tags": {}, "entries": [{"title": "a", "date": "2020-01-01", "time": "10:00"}, {"title": "b", "da"#,
            "jrnl JSON: malformed JSON"
        ),
        (
            "cut-Journal.json",
            #"{"metadata": {"version": "1.0"}, "entries": [{"uuid": "U1", "creationDate": "2023-04-01T07:30:00Z", "te"#,
            "Day One JSON: malformed JSON"
        ),
    ]

    private func file(_ name: String, _ data: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test(arguments: samples.map(\.name))
    func importsEachFormatOnceAndAddsNothingTheSecondTime(name: String) throws {
        let sample = try #require(Self.samples.first { $0.name == name })
        let url = try file(sample.name, sample.data)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(
            try ImportFormat.detect(prefix: Array(sample.data.prefix(65_536)), document: { sample.data })
                == sample.format)

        let store = try TemporaryJournal()
        let first = try store.journal.importFile(atPath: url.path)
        #expect(first.count == sample.entries)
        #expect(first.alreadyPresent == 0)
        // Every entry is known by its date and text, or its origin (a JSON Lines entry without
        // a date by the file's modification time, which dated it).
        let again = try store.journal.importFile(atPath: url.path)
        #expect(again.count == 0)
        #expect(again.alreadyPresent == sample.entries)
        #expect(again.empty == first.empty)
        try store.expectConsistent()
    }

    @Test func datesUndatedJSONLinesByTheFileSoThatImportingItAgainAddsNothing() throws {
        let lines = [#"{"text": "Ran 5k, no watch"}"#, #"{"text": "Ran 5k, no watch"}"#, #"{"text": "Rest day"}"#]
        let url = try file("undated.jsonl", Data(lines.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let modified = Date(timeIntervalSince1970: 1_700_000_000.25)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
        let store = try TemporaryJournal()
        // The lines of one input are not compared with each other: both runs are there.
        let first = try store.journal.importFile(atPath: url.path)
        #expect((first.count, first.alreadyPresent) == (3, 0))
        let entries = try store.journal.search(SearchQuery(filter: .none), page: PageRequest(limit: 10)).entries
        #expect(entries.map(\.date) == Array(repeating: JournalDate(modified), count: 3))
        // Run again (after a kill while it indexed, say): nothing is added.
        let again = try store.journal.importFile(atPath: url.path)
        #expect((again.count, again.alreadyPresent) == (0, 3))
        // A file written since is another input: its lines are dated anew and added.
        try FileManager.default.setAttributes(
            [.modificationDate: modified.addingTimeInterval(60)], ofItemAtPath: url.path)
        #expect(try store.journal.importFile(atPath: url.path).count == 3)
        // Piped, the lines are dated at the import and can't be told from new ones.
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(lines.joined(separator: "\n").utf8))
        try pipe.fileHandleForWriting.close()
        let piped = try store.journal.importJSONLines(
            from: JSONLinesReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, closeWhenDone: false))
        #expect((piped.count, piped.alreadyPresent) == (3, 0))
        #expect(try store.journal.search("rest").total == 3)
        try store.expectConsistent()
    }

    /// While the search store takes an import in, the main store's log is empty: the two logs,
    /// each about as large as the import, are never on disk at once.
    @Test func theMainStoresLogIsEmptiedBeforeAnImportIsIndexed() throws {
        let lines = (0..<3_000).map {
            #"{"text": "entry \#($0): \#(String(repeating: "words of some length ", count: 20))"}"#
        }
        let url = try file("many.jsonl", Data(lines.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try TemporaryJournal()
        let log = store.directory.mainStoreURL.path + "-wal"
        let sizes = Mutex<[Int]>([])
        let summary = try store.journal.importFile(
            atPath: url.path,
            progress: { progress in
                guard progress.phase == .indexing else { return }
                let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
                sizes.withLock { $0.append(size) }
            })
        #expect(summary.count == 3_000)
        let seen = sizes.withLock { $0 }
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == 0 }, "\(seen)")
        try store.expectConsistent()
    }

    @Test func knowsDatedJSONLinesByDateAndTextUnlessAskedToKeepDuplicates() throws {
        let lines = [
            #"{"date": "2024-05-01T08:30:00.000001Z", "text": "Café at noon"}"#,
            #"{"date": "2024-05-01T08:30:00.000001Z", "text": "Café at noon"}"#,
            #"{"date": "2024-05-01T08:30:00.000002Z", "text": "Café at noon"}"#,
            #"{"date": "2024-05-01T08:30:00.000001Z", "text": "Café at noon "}"#,
            #"{"date": "2024-05-01T08:30:00.000001Z", "text": "Café at noon"}"#,
            #"{"date": "2024-05-01T08:30:00.000001Z", "text": "Café at noon", "origin": "app:1"}"#,
        ]
        let url = try file("dated.jsonl", Data(lines.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try TemporaryJournal()
        // The lines of one input are not compared with each other: all six are imported.
        let first = try store.journal.importFile(atPath: url.path)
        #expect((first.count, first.alreadyPresent) == (6, 0))
        // Again, each matches what is in the journal: the second line the first one's entry,
        // the fifth too (the same characters, composed otherwise), the sixth by its origin;
        // another microsecond or another space only their own.
        let again = try store.journal.importFile(atPath: url.path)
        #expect((again.count, again.alreadyPresent) == (0, 6))
        let kept = try store.journal.importFile(atPath: url.path, keepingDuplicates: true)
        // An origin names one entry, duplicates kept or not.
        #expect((kept.count, kept.alreadyPresent) == (5, 1))
        #expect(try store.journal.list().total == 11)
        // Into a journal that holds the first line's entry: the three lines that match it are
        // left out, the other three come in.
        let other = try TemporaryJournal()
        let single = try file("single.jsonl", Data(lines[0].utf8))
        defer { try? FileManager.default.removeItem(at: single.deletingLastPathComponent()) }
        #expect(try other.journal.importFile(atPath: single.path).count == 1)
        let onto = try other.journal.importFile(atPath: url.path)
        #expect((onto.count, onto.alreadyPresent) == (3, 3))
        try store.expectConsistent()
    }

    @Test func importsDayOnesArchiveOnceAndKnowsItsEntriesThroughAnExport() throws {
        let archive = try DayOneTests.archive(["Journal.json": Data(DayOneTests.journal.utf8)])
        defer { try? FileManager.default.removeItem(at: archive) }
        let store = try TemporaryJournal()
        #expect(try store.journal.importFile(atPath: archive.path).count == 2)
        #expect(try store.journal.importFile(atPath: archive.path, format: .dayOne).alreadyPresent == 2)

        // A journal made from another's export knows the Day One entries by their origin.
        let lines = try store.allEntries().map { entry in
            String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        }
        let export = try file("export.jsonl", Data(lines.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(at: export.deletingLastPathComponent()) }
        let copy = try TemporaryJournal()
        #expect(try copy.journal.importFile(atPath: export.path).count == 2)
        #expect(try copy.allEntries().map(\.origin) == store.allEntries().map(\.origin))
        let reimport = try copy.journal.importFile(atPath: archive.path)
        #expect(reimport.count == 0 && reimport.alreadyPresent == 2)

        let refused = #expect(throws: JournalError.self) {
            try copy.journal.add(NewEntry(text: "again", origin: "dayone:0123456789ABCDEF0123456789ABCDEF"))
        }
        #expect(refused?.kind == .invalidInput)
        #expect(try copy.allEntries().count == 2)
    }

    @Test(arguments: broken.map(\.name))
    func badInputInEveryFormatLeavesTheJournalAsItWas(name: String) throws {
        let bad = try #require(Self.broken.first { $0.name == name })
        var data = Data(bad.data.utf8)
        if name == "journal.txt" { data[data.count - 3] = 0xFF }  // invalid UTF-8 in the last entry
        let url = try file(bad.name, data)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "already here"))
        let before = try store.allEntries()
        let error = #expect(throws: JournalError.self) { try store.journal.importFile(atPath: url.path) }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message.contains(bad.message) == true, "\(error?.message ?? "")")
        #expect(try store.allEntries() == before)
        try store.expectConsistent()
    }

    /// JSON Lines whose first line is longer than the prefix read to tell the format: told as
    /// JSON Lines without reading the rest of the file, which is never asked for.
    @Test func jsonLinesWithAFirstLineLongerThanThePrefixAreNotReadWhole() throws {
        let long = #"{"text": ""# + String(repeating: "a long first entry ", count: 5_000) + "\"}\n"
        let data = Data((long + #"{"text": "the second"}"#).utf8)
        let prefix = Array(data.prefix(65_536))
        let format = try ImportFormat.detect(prefix: prefix) { () throws(JournalError) in
            Issue.record("the whole file was read")
            return data
        }
        #expect(format == .jsonl)
        // A document that names its entries early is read whole, as its reader needs.
        let document = Data(#"{"tags": {}, "entries": [{"title": "a", "date": "2020-01-01"}]}"#.utf8)
        #expect(try ImportFormat.detect(prefix: Array(document)) { () throws(JournalError) in document } == .jrnlJSON)
        let url = try file("long.jsonl", data)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try TemporaryJournal()
        #expect(try store.journal.importFile(atPath: url.path).count == 2)
    }

    @Test func aFileThatShowsNoFormatIsRefusedUnlessTheFormatIsGiven() throws {
        let url = try file("notes.md", Data("# Notes\n\nnothing a journal knows\n".utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try TemporaryJournal()
        let error = #expect(throws: JournalError.self) { try store.journal.importFile(atPath: url.path) }
        #expect(
            error?.message
                == "cannot tell the format of \(url.path); say which with a format (jsonl, json, txt, jrnl-encrypted, dayone)"
        )
        let asJrnl = #expect(throws: JournalError.self) {
            try store.journal.importFile(atPath: url.path, format: .jrnlText)
        }
        #expect(asJrnl?.message.hasPrefix("line 1: text before the first entry") == true)
        #expect(try store.allEntries().isEmpty)
    }
}
