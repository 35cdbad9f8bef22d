import Foundation
import GRDB
import Testing

@testable import JournalKit

/// Tags and stars through the journal: written in the text or given, kept through edits,
/// counted, imported, checked by verify and repaired by reindex.
@Suite struct EntryTagsTests {
    @Test func anEntrysTagsAreThoseOfItsTextAndThoseGiven() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let entry = try journal.add(NewEntry(text: "Lunch at #Café Rouge with @Ana", tags: ["#Work", "cafe"], starred: true))
        #expect(entry.tags == ["ana", "cafe", "work"])
        #expect(entry.starred)
        #expect(try journal.entry(entry.id) == entry)

        // Editing the text rewrites the tags written in it; given ones stay.
        let edited = try journal.edit(entry.id, text: "Dinner with @Bob")
        #expect(edited.tags == ["bob", "cafe", "work"], "cafe was given as well as written: it stays")
        #expect(edited.starred, "an edit keeps the star")

        // A tag written in the text can't be taken away; a given one can.
        let (untagged, kept) = try journal.removeTags(["@bob", "WORK"], from: entry.id)
        #expect(kept == ["bob"])
        #expect(untagged.tags == ["bob", "cafe"])
        #expect(try journal.addTags(["東京"], to: entry.id).tags == ["bob", "cafe", "東京"])
        #expect(try journal.setStarred(false, for: entry.id).starred == false)
        try store.expectConsistent()
        #expect(try journal.verify().isConsistent)
    }

    @Test func tagsAreCountedMostUsedFirst() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        try journal.add(NewEntry(text: "#walk in the rain #rain"))
        try journal.add(NewEntry(text: "another #walk"))
        try journal.add(NewEntry(text: "no tags here", tags: ["Walk"]))
        let gone = try journal.add(NewEntry(text: "#gone soon"))
        try journal.delete(gone.id)
        #expect(try journal.tags() == [TagCount(name: "walk", entries: 3), TagCount(name: "rain", entries: 1)])
        #expect(try journal.list(PageRequest(limit: 0)).entries.map(\.tags) == [["walk"], ["walk"], ["rain", "walk"]])
    }

    @Test func badTagNamesAndMissingEntriesAreRefused() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        expectError(.invalidInput) { try journal.add(NewEntry(text: "x", tags: ["--"])) }
        #expect(try journal.list().total == 0, "nothing written")
        let missing = EntryID(storeID: journal.storeID, number: 99)
        expectError(.notFound) { try journal.addTags(["x"], to: missing) }
        expectError(.notFound) { try journal.setStarred(true, for: missing) }
        expectError(.notFound) { try journal.removeTags(["x"], from: missing) }
    }

    @Test func anImportCarriesTagsAndStars() throws {
        let store = try TemporaryJournal()
        let file = store.directory.url.appendingPathComponent("tagged.jsonl")
        try Data(
            """
            {"text": "first #one", "tags": ["Given"], "starred": true}
            {"text": "second", "starred": false}

            """.utf8
        ).write(to: file)
        _ = try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        let entries = try store.allEntries()
        #expect(entries.map(\.tags) == [["given", "one"], []])
        #expect(entries.map(\.starred) == [true, false])

        try Data(##"{"text": "bad", "tags": ["ok", "#"]}"##.utf8).write(to: file)
        let error = #expect(throws: JournalError.self) { try store.journal.importJSONLines(from: JSONLinesReader(path: file.path)) }
        #expect(error?.kind == .invalidInput && error?.line == 1, "\(error?.message ?? "")")
        #expect(try store.allEntries().count == 2)
    }

    @Test func verifyFindsWrongTextTagsAndReindexRepairsThem() throws {
        let store = try TemporaryJournal()
        let entry = try store.journal.add(NewEntry(text: "a #real tag"))
        try store.journal.main.pool.write { db in
            try db.execute(sql: "UPDATE tag SET name = 'fake' WHERE entry = ?", arguments: [entry.id.number])
        }
        let report = try store.journal.verify()
        #expect(report.problems.contains { $0.contains("tags written in the text") }, "\(report.problems)")
        try store.journal.reindex()
        #expect(try store.journal.verify().isConsistent)
        #expect(try store.journal.entry(entry.id).tags == ["real"])
    }
}
