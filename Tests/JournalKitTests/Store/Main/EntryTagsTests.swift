import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

/// Tags and stars through the journal: written in the text or given, kept through edits,
/// counted, imported, checked by verify and repaired by reindex.
@Suite struct EntryTagsTests {
    @Test func anEntrysTagsAreThoseOfItsTextAndThoseGiven() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let entry = try journal.add(
            NewEntry(text: "Lunch at #Café Rouge with @Ana", tags: ["#Work", "cafe"], starred: true))
        #expect(entry.tags.map(\.name) == ["ana", "cafe", "work"])
        #expect(entry.tags.map(\.written) == ["Ana", "Café", "Work"])
        #expect(entry.starred)
        #expect(try journal.entry(entry.id) == entry)

        // Editing the text rewrites the tags written in it; given ones stay.
        let edited = try journal.edit(entry.id, text: "Dinner with @Bob")
        #expect(edited.tags.map(\.name) == ["bob", "cafe", "work"], "cafe was given as well as written: it stays")
        #expect(edited.starred, "an edit keeps the star")

        // A tag written in the text can't be taken away; a given one can.
        let (untagged, kept) = try journal.removeTags(["@bob", "WORK"], from: entry.id)
        #expect(kept == ["bob"])
        #expect(untagged.tags.map(\.name) == ["bob", "cafe"])
        #expect(try journal.addTags(["東京"], to: entry.id).tags.map(\.name) == ["bob", "cafe", "東京"])
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
        #expect(try journal.tags().map(\.name) == ["walk", "rain"])
        #expect(try journal.tags().map(\.entries) == [3, 1])
        #expect(
            try journal.list(PageRequest(limit: 0)).entries.map { $0.tags.map(\.name) } == [
                ["walk"], ["walk"], ["rain", "walk"],
            ])
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
        #expect(entries.map { $0.tags.map(\.written) } == [["Given", "one"], []])
        #expect(entries.map(\.starred) == [true, false])

        try Data(##"{"text": "bad", "tags": ["ok", "#"]}"##.utf8).write(to: file)
        let error = #expect(throws: JournalError.self) {
            try store.journal.importJSONLines(from: JSONLinesReader(path: file.path))
        }
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
        #expect(try store.journal.entry(entry.id).tags == [JournalText.Tag(name: "real", written: "real")])
    }

    /// Each tag is shown in the form most used in the journal, ties to the earliest entry's; the
    /// form follows adds, edits, given tags and deletes.
    @Test func aTagIsShownInItsMostUsedForm() throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        func shown() throws -> [String] { try journal.tags().map(\.tag.written) }
        let day = 86_400_000_000 as Int64
        let later = try journal.add(NewEntry(date: JournalDate(microseconds: 10 * day), text: "#cafe again"))
        let first = try journal.add(NewEntry(date: JournalDate(microseconds: day), text: "Morning at the #Café"))
        #expect(try shown() == ["Café"], "one use each: the earliest entry's form, though added second")
        let third = try journal.add(NewEntry(date: JournalDate(microseconds: 20 * day), text: "#cafe, once more"))
        #expect(try shown() == ["cafe"], "two uses against one")
        #expect(try journal.entry(first.id).tags.map(\.written) == ["cafe"], "every entry shows the journal's form")
        try journal.addTags(["CAFÉ"], to: later.id)
        try journal.addTags(["CAFÉ"], to: first.id)
        #expect(
            try shown() == ["CAFÉ"], "given forms count: two against two, and CAFÉ's first use is the earliest entry")
        try journal.edit(first.id, text: "Morning, no tag")
        #expect(
            try shown() == ["CAFÉ"], "the edit took Café's one use away; CAFÉ still ties and is on the earliest entry")
        try journal.removeTags(["cafe"], from: first.id)
        #expect(try shown() == ["cafe"], "untagged: CAFÉ has one use left, cafe two")
        try journal.delete(third.id)
        #expect(try shown() == ["cafe"], "one use each, on the same entry: the form written in its text comes first")
        #expect(try journal.verify().isConsistent)
    }

    /// A journal written before tags kept their forms opens with its forms read from the texts,
    /// and its given tags under their names.
    @Test func aJournalFromBeforeFormsIsMigrated() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "#Élan and #élan", tags: ["Given"]))
        try store.journal.add(NewEntry(text: "more #Élan"))
        try store.journal.main.pool.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER tag_form_insert; DROP TRIGGER tag_form_delete; DROP TRIGGER tag_form_update;
                    DROP TABLE tag_form; DROP INDEX tag_by_form; ALTER TABLE tag DROP COLUMN written;
                    DELETE FROM grdb_migrations WHERE identifier = 'v5-tag-forms';
                    """)
        }
        try store.journal.close()
        let reopened = try Journal(directory: store.directory)
        #expect(
            try reopened.tags().map(\.tag) == [
                JournalText.Tag(name: "elan", written: "Élan"), JournalText.Tag(name: "given", written: "given"),
            ])
        #expect(try reopened.verify().isConsistent)
    }
}
