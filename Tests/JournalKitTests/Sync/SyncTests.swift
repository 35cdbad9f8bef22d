import Crypto
import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

/// Journals that sync through one folder hold the same entries once they have taken in the same
/// files, whatever the order, and lose nothing a user wrote: a conflict keeps both sides, a
/// file cut short or delivered twice is taken once, a damaged record is reported and not taken.
@Suite(.hangGuard) struct SyncTests {
    /// A folder removed when the test is done with it.
    final class TemporaryFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("journal-sync-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A copy of a journal's folder, as `cp -a` makes one (the journal closed for it, then
    /// reopened), removed when the test is done with it.
    final class CopiedJournal {
        let directory = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-test-\(UUID().uuidString)"))
        let journal: Journal
        init(of original: TemporaryJournal) throws {
            original.close()
            try FileManager.default.copyItem(at: original.directory.url, to: directory.url)
            try original.reopen()
            journal = try Journal(directory: directory)
        }
        deinit { try? FileManager.default.removeItem(at: directory.url) }
    }

    /// What a journal holds, as sync must carry it: each entry's URI (one on every journal),
    /// date, text, tags and star.
    struct Held: Hashable, CustomStringConvertible {
        let uri: String
        let date: JournalDate
        let text: String
        let tags: [String]
        let starred: Bool
        var description: String { "\(uri) \(text) \(tags) \(starred ? "★" : "")" }
    }

    static func held(_ journal: Journal) throws -> [Held] {
        try journal.list(PageRequest(limit: 0)).entries.map { entry in
            Held(
                uri: entry.id.uri, date: entry.date, text: entry.text, tags: entry.tags.map(\.name),
                starred: entry.starred)
        }.sorted { ($0.text, $0.date.microseconds, $0.uri) < ($1.text, $1.date.microseconds, $1.uri) }
    }

    /// Every progress report, in order.
    final class PhaseRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [JournalProgress] = []
        func record(_ progress: JournalProgress) { lock.withLock { reports.append(progress) } }
        var heard: [JournalProgress] { lock.withLock { reports } }
    }

    static func entry(_ text: String, in journal: Journal) throws -> Entry {
        let found = try journal.list(PageRequest(limit: 0)).entries.filter { $0.text == text }
        try #require(found.count == 1, "\(text) is in the journal \(found.count) times")
        return found[0]
    }

    @Test func twoJournalsHoldTheSameEntriesAfterSyncingBothWays() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "walked to the lake #outside", tags: ["Café"], starred: true))
        try a.journal.add(NewEntry(text: "read in the evening"))
        let first = try a.journal.sync(through: folder.url)
        #expect(first.sent == 2 && first.received == 0)
        try b.journal.add(NewEntry(text: "a day at the office"))
        let second = try b.journal.sync(through: folder.url)
        #expect(second.sent == 1 && second.received == 2 && second.added == 2)
        let third = try a.journal.sync()
        #expect(third.sent == 0 && third.received == 1 && third.added == 1)
        #expect(try Self.held(a.journal) == Self.held(b.journal))
        #expect(try Self.held(a.journal).count == 3)
        // Nothing new: nothing sent or received, however often.
        for store in [a, b] {
            let again = try store.journal.sync()
            #expect(again.sent == 0 && again.received == 0)
        }
        // The received entries are searched like any other, and everything derived agrees.
        #expect(try b.journal.search("lake").total == 1)
        #expect(try b.journal.search("cafe").total == 0)
        try a.expectConsistent()
        try b.expectConsistent()
    }

    @Test func anEntryIsShownByOneURIOnEveryJournalAndNamedByItEverywhere() throws {
        let folder = try TemporaryFolder()
        let (a, b, c) = (try TemporaryJournal(), try TemporaryJournal(), try TemporaryJournal())
        let before = try a.journal.add(NewEntry(text: "written before the first sync"))
        _ = try a.journal.sync(through: folder.url)
        let after = try a.journal.add(NewEntry(text: "written after it #later"))
        _ = try b.journal.sync(through: folder.url)
        let atB = try b.journal.add(NewEntry(text: "written on the second journal"))
        for journal in [a, b, a, c] { _ = try journal.journal.sync(through: folder.url) }
        // The URI a journal gave when the entry was written is the one every journal shows, in
        // lists, searches and the identifiers a query selects.
        let shown = [before.id.uri, after.id.uri, atB.id.uri]
        for journal in [a, b, c] {
            #expect(Set(try Self.held(journal.journal).map(\.uri)) == Set(shown))
            #expect(try journal.journal.search("later").entries.map(\.id.uri) == [after.id.uri])
            #expect(try journal.journal.entryIDs(SearchQuery("written")).map(\.uri).sorted() == shown.sorted())
            for uri in shown { #expect(try journal.journal.entry(journal.journal.entryID(parsing: uri)).id.uri == uri) }
        }
        // The identifier another journal shows names the entry in every call that takes one.
        let foreign = try #require(EntryID(uri: after.id.uri))
        #expect(try c.journal.entry(foreign).text == "written after it #later")
        try c.journal.edit(foreign, text: "written after it, edited on the third #later")
        #expect(try c.journal.changeTags(of: [foreign], adding: ["kept"], removing: [])[foreign] == [])
        try c.journal.setStarred(true, for: [foreign])
        _ = try c.journal.sync()
        _ = try a.journal.sync()
        let edited = try a.journal.entry(after.id)
        #expect(edited.text == "written after it, edited on the third #later" && edited.starred)
        #expect(edited.tags.map(\.name) == ["kept", "later"])
        #expect(try c.journal.delete([foreign]) == 1)
        #expect(throws: JournalError.self) { try c.journal.entry(foreign) }
        // A URI of an entry no journal in the folder holds is another journal's.
        let stranger = EntryID(storeID: UUID(), number: 1)
        #expect(throws: JournalError.self) { try c.journal.entry(stranger) }
    }

    @Test func aLongSyncSaysHowFarItHasGot() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.importTexts((0..<2_500).map { "entry number \($0)" })
        _ = try a.journal.sync(through: folder.url)
        let recorder = PhaseRecorder()
        _ = try b.journal.sync(through: folder.url, progress: recorder.record)
        let syncing = recorder.heard.filter { $0.phase == .syncing }
        #expect(syncing.count >= 3)
        #expect(syncing.map(\.done) == syncing.map(\.done).sorted())
        #expect(syncing.last.map { $0.done == $0.total && ($0.total ?? 0) > 0 } == true)
        #expect(recorder.heard.contains { $0.phase == .indexing })
        #expect(try b.journal.search("number").total == 2_500)
    }

    @Test func verifyFindsAChangeNoSyncWouldSend() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for text in ["one", "two", "three"] { try a.journal.add(NewEntry(text: text)) }
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try a.journal.edit(try Self.entry("one", in: a.journal).id, text: "one, edited and pending")
        for store in [a, b] { #expect(try store.journal.verify().isConsistent) }
        try b.journal.main.syncTransaction { db in
            try db.execute(sql: "UPDATE sync_entry SET digest = x'00' WHERE n = 1")
            try db.execute(sql: "DELETE FROM sync_entry WHERE n = 2")
            try db.execute(sql: "DROP TRIGGER sync_entry_deleted")
            try db.execute(sql: "DELETE FROM entry WHERE n = 3")
        }
        let problems = try b.journal.verify().problems.filter { $0.hasPrefix("p") }
        #expect(
            problems == [
                "p2 is neither sent nor pending for the next sync",
                "p1 differs from what sync holds of it, and is not pending for the next sync",
                "p3 was deleted without the next sync knowing",
            ])
    }

    @Test func editsDeletionsStarsAndTagsTravel() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for text in ["one", "two", "three", "four"] { try a.journal.add(NewEntry(text: text)) }
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try b.journal.edit(try Self.entry("one", in: b.journal).id, text: "one, edited on b")
        try b.journal.delete(try Self.entry("two", in: b.journal).id)
        try b.journal.setStarred(true, for: try Self.entry("three", in: b.journal).id)
        try b.journal.addTags(["Travel"], to: try Self.entry("four", in: b.journal).id)
        let sent = try b.journal.sync()
        #expect(sent.sent == 4)
        let received = try a.journal.sync()
        #expect(received.changed == 3 && received.deleted == 1)
        #expect(try Self.held(a.journal) == Self.held(b.journal))
        #expect(try Self.entry("four", in: a.journal).tags.map(\.written) == ["Travel"])
        #expect(try a.journal.search("edited").total == 1)
        try a.expectConsistent()
    }

    /// Each state a journal holds of each version known: the ledger's, as merges read it.
    static func versionStates(_ journal: Journal) throws -> [String: SyncedState?] {
        try journal.main.read { db in
            var states: [String: SyncedState?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT store, number, version, state FROM sync_version") {
                let uri = try SyncLedger.key(row, at: 0).uri
                states[uri + " " + row[2]] = try SyncLedger.state(row[3], of: uri, in: db)
            }
            return states
        }
    }

    /// An entry taken in as its first version holds that version's state for the ledger; the
    /// first change of the entry, by any path, writes the state out as it was, so that a merge
    /// from that version is the same on every journal.
    @Test func aStateLeftToItsEntryIsWrittenOutAsItWasBeforeAnyChange() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for (index, text) in ["one\u{0}with a NUL #inline", "two", "three", "four", "five", "six"].enumerated() {
            try a.journal.add(NewEntry(text: text, tags: ["Travel", "art"], starred: index.isMultiple(of: 2)))
        }
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        let leftToEntries = { (journal: Journal) in
            try journal.main.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_version WHERE state = ''") ?? 0
            }
        }
        #expect(try leftToEntries(b.journal) == 6)
        // The take-in went without the triggers that watch a user's changes, and left them as
        // they were, with nothing pending.
        let triggers = { (journal: Journal) in
            try journal.main.read { db in
                try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'sync_%' ORDER BY name")
            }
        }
        #expect(try triggers(a.journal).count == 10 && triggers(b.journal) == triggers(a.journal))
        #expect(try b.journal.main.read { db in try SyncLedger.pendingCount(in: db) } == 0)
        try b.journal.edit(try Self.entry("one\u{0}with a NUL #inline", in: b.journal).id, text: "one, edited")
        try b.journal.delete(try Self.entry("two", in: b.journal).id)
        _ = try b.journal.setStarred(true, for: try Self.entry("three", in: b.journal).id)
        _ = try b.journal.addTags(["Food"], to: try Self.entry("four", in: b.journal).id)
        _ = try b.journal.removeTags(["travel"], from: try Self.entry("five", in: b.journal).id)
        #expect(try leftToEntries(b.journal) == 1)
        let (onA, onB) = (try Self.versionStates(a.journal), try Self.versionStates(b.journal))
        #expect(onA.count == 6 && onB == onA)
        try b.expectConsistent()
        _ = try b.journal.sync()
        _ = try a.journal.sync()
        #expect(try Self.held(a.journal) == Self.held(b.journal))
        try a.expectConsistent()
    }

    /// A ledger made before states were left to entries has none of the triggers that write
    /// them out: its next sync makes them before it leaves any state to an entry.
    @Test func aLedgerFromBeforeGetsItsTriggersBeforeAnyStateIsLeftToAnEntry() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "one"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        let triggers = { (journal: Journal) in
            try journal.main.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'sync_state_%'")
            }
        }
        #expect(try triggers(b.journal).count == 5)
        try b.journal.main.syncTransaction { db in
            for name in try triggers(b.journal) { try db.execute(sql: "DROP TRIGGER \(name)") }
            try db.execute(
                sql: "UPDATE sync_version SET state = ? WHERE state = ''",
                arguments: [
                    try SyncLedger.state(of: 1, in: db).map(SyncLedger.json)
                ])
        }
        try a.journal.add(NewEntry(text: "two"))
        _ = try a.journal.sync()
        _ = try b.journal.sync()
        #expect(try triggers(b.journal).count == 5)
        try b.journal.edit(try Self.entry("two", in: b.journal).id, text: "two, edited")
        #expect(try Self.versionStates(b.journal) == Self.versionStates(a.journal))
        try b.expectConsistent()
    }

    @Test func editsOfOneEntryOnTwoJournalsKeepBothTexts() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "the first draft"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try a.journal.edit(try Self.entry("the first draft", in: a.journal).id, text: "the draft as a wrote it")
        try b.journal.edit(try Self.entry("the first draft", in: b.journal).id, text: "the draft as b wrote it")
        _ = try a.journal.sync()
        let atB = try b.journal.sync()
        let atA = try a.journal.sync()
        #expect(atB.conflicts == 1 && atA.conflicts == 1)
        let held = try Self.held(a.journal)
        #expect(held == (try Self.held(b.journal)))
        #expect(Set(held.map(\.text)) == ["the draft as a wrote it", "the draft as b wrote it"])
        #expect(held.filter { $0.tags.contains("conflict") }.count == 1)
        // The copy is an entry like any other: deleting it on one journal deletes it on both.
        let copy = try #require(try a.journal.search("#conflict").entries.first)
        try a.journal.delete(copy.id)
        _ = try a.journal.sync()
        _ = try b.journal.sync()
        #expect(try Self.held(b.journal).count == 1)
        #expect(try Self.held(a.journal) == Self.held(b.journal))
    }

    @Test func editsOfDifferentLinesMergeOnEveryJournal() throws {
        let folder = try TemporaryFolder()
        let (a, b, c) = (try TemporaryJournal(), try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "shopping\nmilk\neggs\nbread"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        let atA = try Self.entry("shopping\nmilk\neggs\nbread", in: a.journal)
        try a.journal.edit(atA.id, text: "shopping for the weekend\nmilk\neggs\nbread")
        try a.journal.addTags(["errands"], to: atA.id)
        let atB = try Self.entry("shopping\nmilk\neggs\nbread", in: b.journal)
        try b.journal.edit(atB.id, text: "shopping\nmilk\neggs\nbread\ncoffee")
        try b.journal.setStarred(true, for: atB.id)
        _ = try a.journal.sync()
        let merged = try b.journal.sync()
        #expect(merged.conflicts == 0 && merged.changed == 1)
        _ = try a.journal.sync()
        _ = try c.journal.sync(through: folder.url)
        let expected = [
            Held(
                uri: atA.id.uri, date: atA.date, text: "shopping for the weekend\nmilk\neggs\nbread\ncoffee",
                tags: ["errands"],
                starred: true)
        ]
        for journal in [a, b, c] { #expect(try Self.held(journal.journal) == expected) }
        // An edit of the merged entry is one version made from both: no copy anywhere after.
        let mergedAtC = try #require(try c.journal.list(PageRequest(limit: 1)).entries.first)
        try c.journal.edit(mergedAtC.id, text: mergedAtC.text + "\ntea")
        for journal in [c, a, b, c] { _ = try journal.journal.sync() }
        for journal in [a, b, c] {
            #expect(try Self.held(journal.journal).map(\.text) == [mergedAtC.text + "\ntea"])
        }
    }

    @Test func anEditBeatsADeleteOfTheSameEntry() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "keep me"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try a.journal.delete(try Self.entry("keep me", in: a.journal).id)
        try b.journal.edit(try Self.entry("keep me", in: b.journal).id, text: "keep me, edited")
        _ = try b.journal.sync()
        _ = try a.journal.sync()
        _ = try b.journal.sync()
        #expect(try Self.held(a.journal).map(\.text) == ["keep me, edited"])
        #expect(try Self.held(a.journal) == Self.held(b.journal))
    }

    @Test func aFileCutShortIsTakenAsFarAsItIsWholeAndTheRestOnce() throws {
        let (folder, carried) = (try TemporaryFolder(), try TemporaryFolder())
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for text in ["alpha", "beta", "gamma"] { try a.journal.add(NewEntry(text: text)) }
        let device = try a.journal.sync(through: folder.url).device
        let name = "journal-sync/\(device.uuidString)/00000001.jsonl"
        let whole = try Data(contentsOf: folder.url.appendingPathComponent(name))
        // The tool has delivered the file up to the middle of its last record.
        let cut = whole.prefix(whole.count - 20)
        try FileManager.default.createDirectory(
            at: carried.url.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
        try cut.write(to: carried.url.appendingPathComponent(name))
        let partly = try b.journal.sync(through: carried.url)
        #expect(partly.received == 2 && partly.waiting.count == 1)
        #expect(try Self.held(b.journal).count == 2)
        // Then the rest arrives; and a tool's copy of the file beside it is passed over.
        try whole.write(to: carried.url.appendingPathComponent(name))
        try whole.write(
            to: carried.url.appendingPathComponent("journal-sync/\(device.uuidString)/00000001 (conflicted copy).jsonl")
        )
        let rest = try b.journal.sync()
        #expect(rest.received == 1 && rest.waiting.isEmpty)
        #expect(try Self.held(b.journal) == Self.held(a.journal))
        // A second delivery of an old file changes nothing.
        try b.journal.main.syncTransaction { db in
            try SyncLedger.setPosition(of: device, at: (0, 0, 0), last: nil, in: db)
        }
        #expect(try b.journal.sync().received == 0)
        #expect(try Self.held(b.journal).count == 3)
    }

    @Test func aDamagedRecordIsReportedAndNothingFromItOnIsTaken() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for text in ["alpha", "beta", "gamma"] { try a.journal.add(NewEntry(text: text)) }
        let device = try a.journal.sync(through: folder.url).device
        let file = folder.url.appendingPathComponent("journal-sync/\(device.uuidString)/00000001.jsonl")
        var bytes = try Data(contentsOf: file)
        let secondLine = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let text = try #require(bytes[secondLine...].firstRange(of: Data("beta".utf8)))
        bytes[text.lowerBound] = UInt8(ascii: "z")
        try bytes.write(to: file)
        let report = try b.journal.sync(through: folder.url)
        #expect(report.received == 1)
        #expect(report.damaged == ["\(file.path):2"])
        #expect(try Self.held(b.journal).map(\.text) == ["alpha"])
    }

    /// A long file's lines are decoded a run at a time while those before are taken in: a line
    /// damaged in any run stops the take-in there, and once it is mended, the rest is taken once.
    @Test(arguments: [2_048, 2_049, 4_500])
    func aLongFileDamagedInAnyRunIsTakenUpToTheDamageAndTheRestOnceMended(line: Int) throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.importTexts((1...5_000).map { "entry number \($0)" })
        let device = try a.journal.sync(through: folder.url).device
        let file = folder.url.appendingPathComponent("journal-sync/\(device.uuidString)/00000001.jsonl")
        let whole = try Data(contentsOf: file)
        var damaged = whole
        let starts = [0] + whole.indices.filter { whole[$0] == 0x0A }.map { $0 + 1 }
        let text = try #require(whole[starts[line - 1]...].firstRange(of: Data("entry number".utf8)))
        damaged[text.lowerBound] = UInt8(ascii: "E")
        try damaged.write(to: file)
        let report = try b.journal.sync(through: folder.url)
        #expect(report.received == line - 1)
        #expect(report.damaged == ["\(file.path):\(line)"])
        #expect(try b.journal.search("number").total == line - 1)
        try whole.write(to: file)
        let rest = try b.journal.sync()
        #expect(rest.received == 5_000 - (line - 1) && rest.damaged.isEmpty)
        #expect(try b.journal.search("number").total == 5_000)
        #expect(try Self.held(b.journal) == Self.held(a.journal))
    }

    @Test(arguments: [
        "{\"entry\":\"x-journal://00000000-0000-4000-8000-000000000001/Entry/p1\",\"version\":\"1\"}",
        "[1, 2, 3]", "not json at all", "{\"entry\": 12}",
    ])
    func aLineNoDeviceWouldWriteIsDamagedThoughItsChecksumMatches(json: String) throws {
        let folder = try TemporaryFolder()
        let device = UUID()
        let good = SyncRecord(
            entry: EntryID(storeID: device, number: 1).uri,
            version: SyncVersion(milliseconds: 1, counter: 0, device: device).description, base: nil,
            state: SyncedState(date: 0, text: "a good line \u{0} with a NUL", tags: [], starred: false))
        let checksum = SHA256.hash(data: Data(json.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        var bytes =
            SyncLines.line(good, sealedBy: nil, device: device, file: "1", number: 1)
            + Data("\(checksum) \(json)\n".utf8)
        for state in [
            SyncedState(date: 0, text: " \n ", tags: [], starred: false),
            SyncedState(date: 0, text: "tagged", tags: [Tag(name: "not-its-name", written: "Travel")], starred: false),
            SyncedState(
                date: 0, text: String(repeating: "x", count: NewEntry.maximumTextBytes + 1), tags: [], starred: false),
        ] {
            var record = good
            record.entry = EntryID(storeID: device, number: 2).uri
            record.state = state
            bytes += SyncLines.line(record, sealedBy: nil, device: device, file: "1", number: 2)
        }
        // An entry's URI in a form no device writes: one entry would have several.
        for entry in ["x-journal://\(device.uuidString.lowercased())/Entry/p2", EntryID.uriPrefix(device) + "02"] {
            var record = good
            record.entry = entry
            bytes += SyncLines.line(record, sealedBy: nil, device: device, file: "1", number: 2)
        }
        let file = SyncFolder(url: folder.url).fileURL(of: device, number: 1)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file)
        let b = try TemporaryJournal()
        let report = try b.journal.sync(through: folder.url)
        #expect(report.received == 1 && report.damaged == ["\(file.path):2"])
        #expect(try Self.held(b.journal).map(\.text) == ["a good line \u{0} with a NUL"])
        // Each bad state alone is refused too.
        for line in bytes.split(separator: 0x0A).dropFirst(2) {
            try (Data(line) + Data([0x0A])).write(to: file)
            let c = try TemporaryJournal()
            #expect(try c.journal.sync(through: folder.url).damaged == ["\(file.path):1"])
        }
    }

    @Test func aCopiedJournalWritesAsADeviceOfItsOwn() throws {
        let folder = try TemporaryFolder()
        let a = try TemporaryJournal()
        try a.journal.add(NewEntry(text: "before the copy"))
        let original = try a.journal.sync(through: folder.url)
        let copy = try CopiedJournal(of: a)
        let copied = copy.journal
        try copied.add(NewEntry(text: "written in the copy"))
        let copySync = try copied.sync()
        #expect(copySync.newDevice && copySync.device != original.device)
        try a.journal.add(NewEntry(text: "written in the original"))
        let originalSync = try a.journal.sync()
        #expect(!originalSync.newDevice && originalSync.device == original.device)
        _ = try copied.sync()
        let texts = ["before the copy", "written in the copy", "written in the original"]
        #expect(try Self.held(a.journal).map(\.text) == texts)
        #expect(try Self.held(copied) == Self.held(a.journal))
        // The entry written in the copy is named by the copy's device, not by the number the
        // original gave an entry of its own, and found by that URI in both.
        let inCopy = try Self.entry("written in the copy", in: copied)
        #expect(inCopy.id.uri == EntryID(storeID: copySync.device, number: inCopy.id.number).uri)
        #expect(try a.journal.entry(a.journal.entryID(parsing: inCopy.id.uri)).text == "written in the copy")
        let inOriginal = try Self.entry("written in the original", in: a.journal)
        #expect(try copied.entry(copied.entryID(parsing: inOriginal.id.uri)).text == "written in the original")
    }

    @Test func aJournalCopiedBeforeItEverSyncedHoldsEachEntryOnce() throws {
        // The way a second machine is often set up: the journal copied over, then both synced.
        let folder = try TemporaryFolder()
        let a = try TemporaryJournal()
        try a.journal.add(NewEntry(text: "written before the copy #kept", tags: ["given"], starred: true))
        try a.journal.add(NewEntry(text: "also before it"))
        let copy = try CopiedJournal(of: a)
        let copied = copy.journal
        // Each writes something of its own under the same next number before either syncs.
        try a.journal.add(NewEntry(text: "only on the original"))
        try copied.add(NewEntry(text: "only on the copy"))
        var reports: [SyncReport] = []
        for journal: Journal in [a.journal, copied, a.journal] { reports.append(try journal.sync(through: folder.url)) }
        #expect(try Self.held(a.journal) == Self.held(copied))
        // Each took in the other's three versions: one new entry, and two it held as they say.
        for report in reports[1...] { #expect((report.received, report.added, report.changed) == (3, 1, 0)) }
        // The entries they were copied with are one each; what each wrote alone is an entry of
        // its own, no conflict: the copy's is named by its device.
        let held = try Self.held(a.journal)
        #expect(
            held.map(\.text).sorted()
                == ["also before it", "only on the copy", "only on the original", "written before the copy #kept"])
        #expect(held.allSatisfy { !$0.tags.contains("conflict") })
        let inCopy = try Self.entry("only on the copy", in: copied)
        #expect(inCopy.id.uri == EntryID(storeID: reports[1].device, number: inCopy.id.number).uri)
        let inOriginal = try Self.entry("only on the original", in: a.journal)
        #expect(inOriginal.id.uri == EntryID(storeID: a.journal.storeID, number: inOriginal.id.number).uri)
    }

    @Test func aJournalCopiedBeforeItHeldAnythingNamesWhatEachWritesApart() throws {
        // Copied as soon as it was made, and each synced before writing: the copy's first sync
        // still finds that its file is not the one the journal was made in.
        let folder = try TemporaryFolder()
        let a = try TemporaryJournal()
        let copy = try CopiedJournal(of: a)
        let copied = copy.journal
        for journal: Journal in [a.journal, copied] { _ = try journal.sync(through: folder.url) }
        try a.journal.add(NewEntry(text: "on the original"))
        try copied.add(NewEntry(text: "on the copy"))
        for journal: Journal in [a.journal, copied, a.journal] { _ = try journal.sync() }
        #expect(try Self.held(a.journal) == Self.held(copied))
        #expect(try Self.held(a.journal).map(\.text) == ["on the copy", "on the original"])
        #expect(try Self.held(a.journal).allSatisfy { !$0.tags.contains("conflict") })
    }

    @Test func encryptedJournalsWithOnePassphraseSyncAndTheFolderHoldsNothingInTheClear() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (
            try TemporaryJournal(passphrase: "correct horse"), try TemporaryJournal(passphrase: "correct horse")
        )
        try a.journal.add(
            NewEntry(
                date: JournalDate(microseconds: 1_234_567_890_123_456), text: "meet Zanzibar at the pier",
                tags: ["Quixotic"], starred: true))
        try a.journal.add(NewEntry(text: "a second secret #Xylophone"))
        _ = try a.journal.sync(through: folder.url, passphrase: a.passphrase)
        try b.journal.add(NewEntry(text: "written on b, Kilimanjaro"))
        _ = try b.journal.sync(through: folder.url, passphrase: b.passphrase)
        // Another journal's key is unwrapped at the first sync that meets it: without the
        // passphrase, the sync is refused; once unwrapped, the journal keeps it.
        #expect(throws: JournalError.self) { try a.journal.sync() }
        _ = try a.journal.sync(passphrase: a.passphrase)
        try b.journal.add(NewEntry(text: "written on b later"))
        _ = try b.journal.sync()
        _ = try a.journal.sync()
        #expect(try Self.held(a.journal) == Self.held(b.journal))
        #expect(try Self.held(a.journal).count == 4)
        // No word, tag, date or URI of any entry is in any file of the folder.
        var secrets = ["Zanzibar", "pier", "Quixotic", "quixotic", "Xylophone", "Kilimanjaro", "1234567890123456"]
        secrets += try a.journal.list(PageRequest(limit: 0)).entries.map(\.id.storeID.uuidString)
        let files = FileManager.default.enumerator(atPath: folder.url.path)!.compactMap { $0 as? String }
        #expect(files.count >= 3)
        for name in files {
            let bytes = (try? Data(contentsOf: folder.url.appendingPathComponent(name))) ?? Data()
            for secret in secrets { #expect(bytes.firstRange(of: Data(secret.utf8)) == nil, "\(secret) in \(name)") }
        }
    }

    @Test func encryptedJournalsThatFirstSyncApartWriteNoFileInCommon() throws {
        // Two machines each sync into their copy of the folder before the tool has carried
        // either's files: as with a git clone on each, then a pull.
        let (here, there) = (try TemporaryFolder(), try TemporaryFolder())
        let (a, b) = (
            try TemporaryJournal(passphrase: "correct horse"), try TemporaryJournal(passphrase: "correct horse")
        )
        try a.journal.add(NewEntry(text: "written on the laptop"))
        try b.journal.add(NewEntry(text: "written on the desktop"))
        _ = try a.journal.sync(through: here.url, passphrase: a.passphrase)
        _ = try b.journal.sync(through: there.url, passphrase: b.passphrase)
        let files = { (folder: TemporaryFolder) in
            Set(FileManager.default.enumerator(atPath: folder.url.path)!.compactMap { $0 as? String })
        }
        let (ours, theirs) = (files(here), files(there))
        #expect(ours.intersection(theirs) == ["journal-sync"], "\(ours.intersection(theirs))")
        // The tool carries each side's files to the other.
        for name in theirs.subtracting(ours).sorted() {
            let (from, to) = (there.url.appendingPathComponent(name), here.url.appendingPathComponent(name))
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: from.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
            } else {
                try FileManager.default.copyItem(at: from, to: to)
            }
        }
        _ = try a.journal.sync(passphrase: a.passphrase)
        _ = try b.journal.sync(through: here.url, passphrase: b.passphrase)
        #expect(try Self.held(a.journal) == Self.held(b.journal))
        #expect(try Self.held(a.journal).map(\.text) == ["written on the desktop", "written on the laptop"])
    }

    @Test func aWrongPassphraseAndAFolderOfTheOtherKindAreRefusedWritingNothing() throws {
        let (encrypted, plain) = (try TemporaryFolder(), try TemporaryFolder())
        let a = try TemporaryJournal(passphrase: "correct horse")
        try a.journal.add(NewEntry(text: "a secret"))
        _ = try a.journal.sync(through: encrypted.url, passphrase: a.passphrase)
        let other = try TemporaryJournal(passphrase: "another passphrase")
        try other.journal.add(NewEntry(text: "kept to itself"))
        let wrong = try #require(throws: JournalError.self) {
            try other.journal.sync(through: encrypted.url, passphrase: other.passphrase)
        }
        #expect(wrong.kind == .wrongPassphrase)
        let missing = try #require(throws: JournalError.self) { try other.journal.sync(through: encrypted.url) }
        #expect(missing.kind == .passphraseRequired)
        #expect(try Self.held(other.journal).map(\.text) == ["kept to itself"])
        let plainJournal = try TemporaryJournal()
        try plainJournal.journal.add(NewEntry(text: "in the clear"))
        #expect(throws: JournalError.self) { try plainJournal.journal.sync(through: encrypted.url) }
        _ = try plainJournal.journal.sync(through: plain.url)
        #expect(throws: JournalError.self) { try other.journal.sync(through: plain.url, passphrase: other.passphrase) }
        // A sealed device arriving in a plain journal's folder is refused, without a word of a
        // conversion the journal did not make.
        let sealed = try #require(SyncFolder(url: encrypted.url).devices().first)
        let arrived = SyncFolder(url: plain.url).deviceURL(sealed)
        try FileManager.default.copyItem(at: SyncFolder(url: encrypted.url).deviceURL(sealed), to: arrived)
        let refused = try #require(throws: JournalError.self) { try plainJournal.journal.sync() }
        #expect(refused.message.contains("folder of encrypted journals") && !refused.message.contains("since it"))
        try FileManager.default.removeItem(at: arrived)
        // A passphrase that is not the journal's own wraps no key for it.
        let (empty, c) = (try TemporaryFolder(), try TemporaryJournal(passphrase: "correct horse"))
        try c.journal.add(NewEntry(text: "not sent"))
        let notItsOwn = try #require(throws: JournalError.self) {
            try c.journal.sync(through: empty.url, passphrase: other.passphrase)
        }
        #expect(notItsOwn.kind == .wrongPassphrase)
        // Nothing was written by the refused syncs: the folders hold one device each.
        #expect(SyncFolder(url: encrypted.url).devices().count == 1)
        #expect(SyncFolder(url: plain.url).devices().count == 1)
        #expect(SyncFolder(url: empty.url).devices().isEmpty)
    }

    @Test func aSealedRecordChangedOrMovedIsReportedAndNotTaken() throws {
        let folder = try TemporaryFolder()
        let a = try TemporaryJournal(passphrase: "correct horse")
        for text in ["alpha", "beta", "gamma"] { try a.journal.add(NewEntry(text: text)) }
        let device = try a.journal.sync(through: folder.url, passphrase: a.passphrase).device
        let file = folder.url.appendingPathComponent("journal-sync/\(device.uuidString)/00000001.jsonl")
        let whole = try Data(contentsOf: file)
        let lines = whole.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 3)
        // One byte changed in each line in turn: the lines before it are taken, nothing after.
        for changed in 0..<3 {
            var bytes = Data()
            for (index, line) in lines.enumerated() {
                var line = Data(line)
                if index == changed { line[line.startIndex + 30] = line[line.startIndex + 30] == 0x41 ? 0x42 : 0x41 }
                bytes += line + Data([0x0A])
            }
            try bytes.write(to: file)
            let b = try TemporaryJournal(passphrase: "correct horse")
            let report = try b.journal.sync(through: folder.url, passphrase: b.passphrase)
            #expect(report.received == changed && report.damaged == ["\(file.path):\(changed + 1)"])
        }
        // The first line put in the second's place (a record replayed) does not open there.
        try (Data(lines[lines.startIndex]) + Data([0x0A]) + Data(lines[lines.startIndex]) + Data([0x0A])).write(
            to: file)
        let b = try TemporaryJournal(passphrase: "correct horse")
        let replayed = try b.journal.sync(through: folder.url, passphrase: b.passphrase)
        #expect(replayed.received == 1 && replayed.damaged == ["\(file.path):2"])
    }

    @Test func aFolderThatIsNotThereIsAClearError() throws {
        let a = try TemporaryJournal()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let error = try #require(throws: JournalError.self) { try a.journal.sync(through: missing) }
        #expect(error.kind == .usage)
        #expect(throws: JournalError.self) { try a.journal.sync() }
    }

    @Test func aFolderWithoutTheJournalsOwnFilesIsRefused() throws {
        let (first, second) = (try TemporaryFolder(), try TemporaryFolder())
        let a = try TemporaryJournal()
        try a.journal.add(NewEntry(text: "sent through the first folder"))
        let sent = try a.journal.sync(through: first.url)
        // Another folder: journals joining it would never get what was sent through the first.
        let elsewhere = try #require(throws: JournalError.self) { try a.journal.sync(through: second.url) }
        #expect(elsewhere.kind == .usage && elsewhere.message.contains(first.url.path), "\(elsewhere.message)")
        #expect(SyncFolder(url: second.url).devices().isEmpty)
        // The first folder's files carried over, it syncs there, and a journal joining it gets all.
        try FileManager.default.removeItem(at: second.url)
        try FileManager.default.copyItem(at: first.url, to: second.url)
        _ = try a.journal.sync(through: second.url)
        let b = try TemporaryJournal()
        _ = try b.journal.sync(through: second.url)
        #expect(try Self.held(b.journal) == Self.held(a.journal))
        // A folder that lost one of the journal's files is refused too.
        try FileManager.default.removeItem(at: SyncFolder(url: second.url).fileURL(of: sent.device, number: 1))
        #expect(throws: JournalError.self) { try a.journal.sync() }
    }

    @Test func aCopyStartingAFolderOfItsOwnSendsEverythingItHolds() throws {
        let (first, second) = (try TemporaryFolder(), try TemporaryFolder())
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "written on a", tags: ["given"], starred: true))
        _ = try a.journal.sync(through: first.url)
        try b.journal.add(NewEntry(text: "written on b"))
        _ = try b.journal.sync(through: first.url)
        _ = try a.journal.sync()
        let copy = try CopiedJournal(of: a)
        let copied = copy.journal
        // A new folder, without the files of the device the copy was: it sends all it holds.
        let started = try copied.sync(through: second.url)
        #expect(started.newDevice && started.sent == 2)
        let c = try TemporaryJournal()
        _ = try c.journal.sync(through: second.url)
        #expect(try Self.held(c.journal) == Self.held(copied))
        #expect(try Self.held(c.journal).count == 2)
        try c.expectConsistent()
    }

    @Test func aFileThatCannotBeWrittenLosesNothingAndTheNextSyncWritesIt() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "sent at the first sync"))
        let first = try a.journal.sync(through: folder.url)
        try a.journal.add(NewEntry(text: "written while the folder refuses"))
        // Something in the way of the next file (as a folder that can't be written is, for a
        // user that isn't root): the sync fails, and says so.
        let blocked = SyncFolder(url: folder.url).fileURL(of: first.device, number: 2)
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: false)
        let failed = try #require(throws: JournalError.self) { try a.journal.sync() }
        #expect(failed.kind == .store, "\(failed)")
        #expect(try a.journal.syncStatus().pending == 1)
        try a.expectConsistent()
        try FileManager.default.removeItem(at: blocked)
        #expect(try a.journal.sync().sent == 1)
        #expect(try a.journal.syncStatus().pending == 0)
        _ = try b.journal.sync(through: folder.url)
        #expect(try Self.held(b.journal) == Self.held(a.journal))
        #expect(try Self.held(b.journal).count == 2)
    }
}

extension SyncTests {
    @Test func journalsEncryptedSinceTheySyncedMoveToANewFolderTogetherAndLoseNothing() throws {
        let (old, new) = (try TemporaryFolder(), try TemporaryFolder())
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "written on a"))
        _ = try a.journal.sync(through: old.url)
        try b.journal.add(NewEntry(text: "written on b"))
        _ = try b.journal.sync(through: old.url)
        _ = try a.journal.sync()
        let passphrase = try Passphrase("correct horse")
        var encrypted: [Journal] = []
        for journal in [a, b] {
            journal.close()
            try Journal.encrypt(journal.directory, passphrase: passphrase, cost: .cheapestForTests)
            encrypted.append(try Journal(directory: journal.directory, passphrase: passphrase))
        }
        // The folder of plain journals refuses them, saying how to go on, and writing nothing.
        let before = FileManager.default.enumerator(atPath: old.url.path)!.compactMap { $0 as? String }.sorted()
        let refusal = #expect(throws: JournalError.self) { try encrypted[0].sync(passphrase: passphrase) }
        #expect(refusal?.message.contains("was encrypted since it last synced through it") == true)
        #expect(FileManager.default.enumerator(atPath: old.url.path)!.compactMap { $0 as? String }.sorted() == before)
        // Through a new folder each sends everything it holds: both hold every entry, once.
        for journal in encrypted { _ = try journal.sync(through: new.url, passphrase: passphrase) }
        for journal in encrypted { _ = try journal.sync(passphrase: passphrase) }
        #expect(try Self.held(encrypted[0]) == Self.held(encrypted[1]))
        #expect(try Self.held(encrypted[0]).map(\.text) == ["written on a", "written on b"])
        // And a journal that joins the new folder gets them all.
        let c = try TemporaryJournal(passphrase: "correct horse")
        _ = try c.journal.sync(through: new.url, passphrase: c.passphrase)
        #expect(try Self.held(c.journal) == Self.held(encrypted[0]))
    }
}
