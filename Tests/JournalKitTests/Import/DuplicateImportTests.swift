import Foundation
import Testing

@testable import JournalKit

/// What an import leaves out as held already, and what it does not: an entry is the journal's
/// when it has the same date and text and adds no star and no tag; one exported from this
/// journal is recognised while the entry it came from is still as it was, not by its number
/// alone (a copy of the journal numbers other entries the same); and the check reads a date's
/// entries once, however many input lines share it.
@Suite(.hangGuard) struct DuplicateImportTests {
    private func input(_ lines: [String], in store: TemporaryJournal) throws -> URL {
        let file = store.directory.url.appendingPathComponent("input-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        return file
    }

    @Test func anEntryThatAddsAStarOrATagIsNotLeftOut() throws {
        let store = try TemporaryJournal()
        let plain = #"{"date": "2024-05-01T08:30:00Z", "text": "Picnic by the river"}"#
        #expect(try store.journal.importFile(atPath: input([plain], in: store).path).count == 1)
        let lines = [
            plain,
            #"{"date": "2024-05-01T08:30:00Z", "text": "Picnic by the river", "starred": true}"#,
            #"{"date": "2024-05-01T08:30:00Z", "text": "Picnic by the river", "tags": ["summer"]}"#,
        ]
        let file = try input(lines, in: store)
        let summary = try store.journal.importFile(atPath: file.path)
        #expect((summary.count, summary.alreadyPresent) == (2, 1))
        let entries = try store.allEntries()
        #expect(entries.filter(\.starred).count == 1)
        #expect(entries.filter { $0.tags.map(\.name) == ["summer"] }.count == 1)
        // Again: each line now has an entry with at least its star and tags.
        let again = try store.journal.importFile(atPath: file.path)
        #expect((again.count, again.alreadyPresent) == (0, 3))
        // An entry with more than the line has (a tag given since) still holds it.
        let first = try #require(entries.first { !$0.starred && $0.tags.isEmpty })
        try store.journal.addTags(["later"], to: first.id)
        #expect(try store.journal.importFile(atPath: input([plain], in: store).path).alreadyPresent == 1)
        try store.expectConsistent()
    }

    /// A copy of the journal (`cp -a`, a backup restored, another machine) has the store's UUID,
    /// and numbers its own new entries as the original numbers others: the copy's export is not
    /// "exported from" the original, and nothing of it is lost.
    @Test func aCopysExportIsNotTakenForTheOriginals() throws {
        let original = try TemporaryJournal()
        try original.journal.add(NewEntry(date: JournalDate(microseconds: 1_000_000), text: "written before the copy"))
        original.close()
        let copy = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-copy-\(UUID().uuidString)"))
        try FileManager.default.copyItem(at: original.directory.url, to: copy.url)
        defer { try? FileManager.default.removeItem(at: copy.url) }
        let copied = try Journal(directory: copy, create: false)
        let onTheCopy = try copied.add(NewEntry(text: "written on the copy"))
        let edited = try copied.edit(EntryID(storeID: copied.storeID, number: 1), text: "edited on the copy")
        let export = try copied.list(PageRequest(limit: 0)).entries.map {
            String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
        }
        try copied.close()

        try original.reopen()
        let added = try original.journal.add(NewEntry(text: "written on the original"))
        #expect(added.id == onTheCopy.id, "the copy and the original number their new entries alike")
        let summary = try original.journal.importFile(atPath: input(export, in: original).path)
        #expect((summary.count, summary.alreadyPresent) == (2, 0))
        let texts = Set(try original.allEntries().map(\.text))
        #expect(
            texts == [
                "written before the copy", "written on the original", onTheCopy.text, edited.text,
            ])
        // The original's own export, imported again, is all left out.
        let own = try original.journal.list(PageRequest(limit: 0)).entries.map {
            String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
        }
        let again = try original.journal.importFile(atPath: input(own, in: original).path)
        #expect((again.count, again.alreadyPresent) == (0, 4))
        try original.expectConsistent()
    }

    /// Undated lines share one date (the file's): the second import finds each line's entry in
    /// one read of that date, not one per line, and leaves every line out.
    @Test func undatedLinesImportedAgainAreAllLeftOut() throws {
        let store = try TemporaryJournal()
        let lines = (0..<3_000).map { #"{"text": "undated line \#($0) #t\#($0 % 7)"}"# }
        let file = try input(lines, in: store)
        #expect(try store.journal.importFile(atPath: file.path).count == 3_000)
        let again = try store.journal.importFile(atPath: file.path)
        #expect((again.count, again.alreadyPresent) == (0, 3_000))
        #expect(try store.journal.list().total == 3_000)
    }

    /// What the duplicate check keeps of a date is bounded: past its limit, dates read before
    /// are dropped and read again when asked for, with the same answers.
    @Test func theEntriesKeptForTheCheckAreBounded() {
        var held = HeldEntries()
        let big = String(repeating: "x", count: HeldEntries.maximumBytes / 2 + 1)
        let dates = (0..<3).map { HeldEntries.Dates(start: Int64($0), precision: 1) }
        let none = HeldEntries.Held(starred: false, tags: [])
        held.record(dates[0], [("small", none)])
        held.record(dates[1], [(big, none)])
        #expect(held.has(dates[0]) && held.has(dates[1]))
        held.record(dates[2], [(big, HeldEntries.Held(starred: true, tags: ["a"]))])
        #expect(!held.has(dates[0]) && !held.has(dates[1]) && held.has(dates[2]))
        #expect(held.holds(big, as: HeldEntries.Held(starred: true, tags: ["a"]), on: dates[2]) { $0 })
        #expect(held.holds(big, as: none, on: dates[2]) { $0 })
        #expect(!held.holds(big, as: HeldEntries.Held(starred: false, tags: ["b"]), on: dates[2]) { $0 })
    }
}
