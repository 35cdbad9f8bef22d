import Foundation
import Testing

@testable import JournalKit

/// Compaction: the versions every journal of a folder has passed are removed from every journal
/// and, by a snapshot, from the folder; a journal that joins starts from what is left and holds
/// the same entries; a journal that has not passed them holds compaction back, and one restored
/// from before it loses nothing.
@Suite(.hangGuard) struct SyncCompactionTests {
    typealias TemporaryFolder = SyncTests.TemporaryFolder

    /// How many versions of `entry` a journal keeps.
    static func versions(of entry: Entry, in journal: Journal) throws -> Int {
        try journal.main.read { db in try SyncLedger.versions(of: entry.id.uri, in: db).count }
    }

    /// The names of `device`'s files in `folder`.
    static func files(of device: UUID, in folder: TemporaryFolder) -> [String] {
        let names = try? FileManager.default.contentsOfDirectory(
            atPath: SyncFolder(url: folder.url).deviceURL(device).path)
        return (names ?? []).filter { SyncFolder.File(name: $0) != nil }.sorted()
    }

    /// `a` edits one entry `rounds` times, `b` syncing after each.
    static func edit(
        _ a: TemporaryJournal, _ b: TemporaryJournal, from first: Int, rounds: Int
    ) throws -> (compacted: Int, last: Int) {
        var compacted = 0
        for round in first..<(first + rounds) {
            try a.journal.edit(try SyncTests.entry("draft \(round - 1)", in: a.journal).id, text: "draft \(round)")
            compacted += try a.journal.sync(passphrase: a.passphrase).compacted
            compacted += try b.journal.sync(passphrase: b.passphrase).compacted
        }
        return (compacted, first + rounds - 1)
    }

    @Test(arguments: [nil, "correct horse"])
    func versionsEveryJournalPassedAreRemovedAndAJournalThatJoinsStartsFromASnapshot(passphrase: String?) throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(passphrase: passphrase), try TemporaryJournal(passphrase: passphrase))
        try a.journal.add(NewEntry(text: "draft 0"))
        try a.journal.add(NewEntry(text: "never edited"))
        let device = try a.journal.sync(through: folder.url, passphrase: a.passphrase).device
        _ = try b.journal.sync(through: folder.url, passphrase: b.passphrase)
        let (compacted, last) = try Self.edit(a, b, from: 1, rounds: 8)
        _ = try a.journal.sync(passphrase: a.passphrase)
        #expect(compacted > 0)
        // Every journal keeps the entry's latest version only, and the folder holds a snapshot of
        // a's files in place of the files it stands for.
        let entry = try SyncTests.entry("draft \(last)", in: a.journal)
        #expect(try Self.versions(of: entry, in: a.journal) == 1)
        #expect(try Self.versions(of: entry, in: b.journal) == 1)
        let names = Self.files(of: device, in: folder)
        #expect(names.contains { $0.hasSuffix(".snapshot.jsonl") }, "\(names)")
        #expect(names.count < 4, "\(names)")
        // A journal that joins starts from what is left, holds the same entries, and keeps on
        // syncing with the others.
        let c = try TemporaryJournal(passphrase: passphrase)
        _ = try c.journal.sync(through: folder.url, passphrase: c.passphrase)
        #expect(try SyncTests.held(c.journal) == SyncTests.held(a.journal))
        #expect(try Self.versions(of: try SyncTests.entry("draft \(last)", in: c.journal), in: c.journal) == 1)
        try c.journal.edit(try SyncTests.entry("draft \(last)", in: c.journal).id, text: "draft \(last)\nfrom c")
        _ = try c.journal.sync(passphrase: c.passphrase)
        for journal in [a, b] { _ = try journal.journal.sync(passphrase: journal.passphrase) }
        #expect(try SyncTests.held(a.journal) == SyncTests.held(c.journal))
        #expect(try SyncTests.held(b.journal) == SyncTests.held(c.journal))
        for journal in [a, b, c] {
            try journal.expectConsistent()
            #expect(try journal.journal.verify().isConsistent)
        }
        // A version kept that compaction removed is reported.
        try a.journal.main.syncTransaction { db in
            let floor = try #require(try SyncLedger.floors(in: db).first { $0.entry == entry.id.uri })
            let key = try SyncLedger.key(entry.id.uri)
            try db.execute(
                sql: "INSERT INTO sync_version (store, number, version, head, state) VALUES (?, ?, ?, 0, NULL)",
                arguments: [key.store, key.number, floor.through[0]])
        }
        #expect(try a.journal.verify().problems.contains { $0.contains("kept, though compaction removed it") })
    }

    @Test func aJournalThatHasNotPassedAVersionHoldsItsCompactionBackAndItsEditMerges() throws {
        let folder = try TemporaryFolder()
        let (a, b, late) = (try TemporaryJournal(), try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "draft 0\nunchanged\nthe last line"))
        _ = try a.journal.sync(through: folder.url)
        for journal in [b, late] { _ = try journal.journal.sync(through: folder.url) }
        // `late` holds the first version, and edits its last line before it syncs again.
        try late.journal.edit(
            try SyncTests.entry("draft 0\nunchanged\nthe last line", in: late.journal).id,
            text: "draft 0\nunchanged\nthe last line, late")
        var compacted = 0
        for round in 1...4 {
            let entry = try #require(try a.journal.list(PageRequest(limit: 0)).entries.first)
            try a.journal.edit(entry.id, text: "draft \(round)\nunchanged\nthe last line")
            compacted += try a.journal.sync().compacted
            compacted += try b.journal.sync().compacted
        }
        // Nothing of the entry was removed while `late` has not passed its versions.
        #expect(compacted == 0)
        _ = try late.journal.sync()
        for journal in [a, b, late] { _ = try journal.journal.sync() }
        for journal in [a, b, late] {
            let held = try SyncTests.held(journal.journal)
            #expect(held.map(\.text) == ["draft 4\nunchanged\nthe last line, late"], "\(held)")
        }
        // The merged entry has two heads: the journal whose edit won makes a version from both,
        // and once every journal has passed that one, the others go.
        var later = 0
        for _ in 0..<3 { for journal in [a, b, late] { later += try journal.journal.sync().compacted } }
        #expect(later > 0)
        let entry = try SyncTests.entry("draft 4\nunchanged\nthe last line, late", in: a.journal)
        for journal in [a, b, late] { #expect(try Self.versions(of: entry, in: journal.journal) == 1) }
    }

    @Test(arguments: [nil, "correct horse"])
    func anEntryWhoseConflictKeptACopyIsCompactedAndTheCopyStaysOnEveryJournal(passphrase: String?) throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(passphrase: passphrase), try TemporaryJournal(passphrase: passphrase))
        try a.journal.add(NewEntry(text: "the first line\nthe second line"))
        try a.journal.add(NewEntry(text: "kept on one side, deleted on the other"))
        _ = try a.journal.sync(through: folder.url, passphrase: a.passphrase)
        _ = try b.journal.sync(through: folder.url, passphrase: b.passphrase)
        // The same line changed on both sides (a copy is kept of the edit that loses), and an
        // entry edited on one side and deleted on the other (the edit wins, the delete keeps
        // no words).
        try a.journal.edit(
            try SyncTests.entry("the first line\nthe second line", in: a.journal).id, text: "from a\nthe second line")
        try b.journal.edit(
            try SyncTests.entry("the first line\nthe second line", in: b.journal).id, text: "from b\nthe second line")
        try a.journal.delete(try SyncTests.entry("kept on one side, deleted on the other", in: a.journal).id)
        try b.journal.edit(
            try SyncTests.entry("kept on one side, deleted on the other", in: b.journal).id, text: "kept, edited on b")
        var (conflicts, compacted) = (0, 0)
        for journal in [a, b, a] {
            let report = try journal.journal.sync(passphrase: journal.passphrase)
            (conflicts, compacted) = (conflicts + report.conflicts, compacted + report.compacted)
        }
        #expect(conflicts == 2)
        let held = try SyncTests.held(a.journal)
        #expect(try SyncTests.held(b.journal) == held)
        let entries = try held.map { held in try SyncTests.entry(held.text, in: a.journal) }
        #expect(try entries.map { try Self.versions(of: $0, in: b.journal) }.max() == 3)
        // Every version but each entry's winning head goes, the copy's too (three entries
        // compacted, each by one journal or both); the copy stays, the same on both, as does
        // every entry.
        for _ in 0..<4 {
            for journal in [a, b] { compacted += try journal.journal.sync(passphrase: journal.passphrase).compacted }
        }
        #expect(compacted >= 3)
        for journal in [a, b] {
            #expect(try SyncTests.held(journal.journal) == held)
            for entry in entries { #expect(try Self.versions(of: entry, in: journal.journal) == 1, "\(entry.text)") }
            #expect(
                try journal.journal.main.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_copy") } == 0
            )
            try journal.expectConsistent()
            #expect(try journal.journal.verify().isConsistent)
        }
        #expect(
            held.map(\.text).sorted() == ["from a\nthe second line", "from b\nthe second line", "kept, edited on b"])
        let copies = held.filter { $0.tags.contains("conflict") }.map(\.text)
        #expect(copies.count == 1)
        let won = try #require(["from a\nthe second line", "from b\nthe second line"].first { !copies.contains($0) })
        // A journal that joins holds the same entries, the copy once, and makes no copy again;
        // an edit of the entry made from its one head is no conflict anywhere.
        let c = try TemporaryJournal(passphrase: passphrase)
        #expect(try c.journal.sync(through: folder.url, passphrase: c.passphrase).conflicts == 0)
        #expect(try SyncTests.held(c.journal) == held)
        try c.journal.edit(try SyncTests.entry(won, in: c.journal).id, text: won + "\nand c")
        _ = try c.journal.sync(passphrase: c.passphrase)
        for journal in [a, b] { #expect(try journal.journal.sync(passphrase: journal.passphrase).conflicts == 0) }
        let after = try SyncTests.held(c.journal)
        #expect(after.map(\.text).sorted() == (copies + [won + "\nand c", "kept, edited on b"]).sorted())
        for journal in [a, b] { #expect(try SyncTests.held(journal.journal) == after) }
    }

    @Test func aCopyEditedWhileItsEntryIsCompactedKeepsTheEdit() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "one line"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        try a.journal.edit(try SyncTests.entry("one line", in: a.journal).id, text: "one line from a")
        try b.journal.edit(try SyncTests.entry("one line", in: b.journal).id, text: "one line from b")
        for journal in [a, b, a] { _ = try journal.journal.sync() }
        // The journal whose edit lost edits the copy while the one whose edit won makes a version
        // of the copy as it was made, to compact the entry with: the two merge.
        let copy = try #require(try a.journal.search("#conflict").entries.first)
        let (lost, won) = copy.text.hasSuffix("from a") ? (a, b) : (b, a)
        try lost.journal.edit(
            try #require(try lost.journal.search("#conflict").entries.first).id, text: copy.text + "\nedited")
        for _ in 0..<2 { _ = try won.journal.sync() }
        #expect(try lost.journal.sync().conflicts == 0)
        for _ in 0..<4 { for journal in [a, b] { _ = try journal.journal.sync() } }
        let held = try SyncTests.held(a.journal)
        #expect(try SyncTests.held(b.journal) == held)
        #expect(held.count == 2, "\(held)")
        #expect(
            held.map(\.text).sorted() == [copy.text + "\nedited", won === a ? "one line from a" : "one line from b"])
        for journal in [a, b] {
            for entry in held {
                let entry = try SyncTests.entry(entry.text, in: journal.journal)
                #expect(try Self.versions(of: entry, in: journal.journal) == 1, "\(entry.text)")
            }
            #expect(try journal.journal.verify().isConsistent)
        }
    }

    @Test func aJournalRestoredFromBeforeACompactionLosesNothing() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "draft 0"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        let backup = try SyncTests.CopiedJournal(of: b)
        _ = try Self.edit(a, b, from: 1, rounds: 6)
        _ = try a.journal.sync()
        #expect(try Self.versions(of: try SyncTests.entry("draft 6", in: a.journal), in: a.journal) == 1)
        // The backup holds versions the others removed, and edits the entry from one of them.
        try backup.journal.edit(try SyncTests.entry("draft 0", in: backup.journal).id, text: "draft 0, restored")
        _ = try backup.journal.sync()
        for journal: Journal in [a.journal, b.journal, backup.journal] { _ = try journal.sync() }
        let held = try SyncTests.held(a.journal)
        #expect(try SyncTests.held(b.journal) == held)
        #expect(try SyncTests.held(backup.journal) == held)
        #expect(held.map(\.text).sorted() == ["draft 0, restored", "draft 6"])
        let newcomer = try TemporaryJournal()
        _ = try newcomer.journal.sync(through: folder.url)
        #expect(try SyncTests.held(newcomer.journal) == held)
    }
}

extension SyncCompactionTests {
    @Test func aSnapshotASyncBeganAndDidNotFinishIsFinishedBeforeAnythingElse() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        for text in ["one", "two"] {
            try a.journal.add(NewEntry(text: text))
            _ = try a.journal.sync(through: folder.url)
        }
        // The sync was cut off once it had taken the snapshot's number.
        let device = try a.journal.sync().device
        let number = try a.journal.main.read { db in try SyncLedger.nextFile(in: db) }
        try a.journal.main.syncTransaction { db in try SyncLedger.reserveSnapshot(number, in: db) }
        try a.journal.add(NewEntry(text: "three"))
        #expect(try a.journal.sync().sent == 1)
        let snapshot = SyncFolder.File(number: number, isSnapshot: true).name
        let names = Self.files(of: device, in: folder)
        #expect(names == [snapshot, SyncFolder.File(number: number + 1).name], "\(names)")
        _ = try b.journal.sync(through: folder.url)
        #expect(try SyncTests.held(b.journal) == SyncTests.held(a.journal))
        #expect(try SyncTests.held(b.journal).count == 3)
    }
}

extension SyncCompactionTests {
    @Test func aJournalThatHasNotSyncedForAMonthIsNotWaitedForAndLosesNothingWhenItComesBack() throws {
        let folder = try TemporaryFolder()
        let (a, b, gone) = (try TemporaryJournal(), try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "draft 0"))
        _ = try a.journal.sync(through: folder.url)
        _ = try b.journal.sync(through: folder.url)
        let device = try gone.journal.sync(through: folder.url).device
        #expect(try Self.edit(a, b, from: 1, rounds: 3).compacted == 0)
        // What it said it took in, said a month and a day ago.
        let place = SyncFolder(url: folder.url)
        var said = try #require(place.taken(by: device, sealedBy: nil)?.values.first)
        said.at = SyncTaken.now(Date(timeIntervalSinceNow: -31 * 24 * 3600))
        try place.writeTaken(said, of: device, sealedBy: nil)
        let listed = try #require(try a.journal.syncStatus().devices.first { $0.id == device })
        #expect(!listed.isWaitedFor && listed.lastSaid.map { $0 < Date(timeIntervalSinceNow: -30 * 24 * 3600) } == true)
        #expect(
            try b.journal.syncStatus().devices.allSatisfy { $0.id == device || $0.isWaitedFor && $0.lastSaid != nil })
        #expect(try Self.edit(a, b, from: 4, rounds: 3).compacted > 0)
        // Back, it edits the entry from the version it holds, which the others removed: its
        // words are kept, on every journal.
        try gone.journal.edit(try SyncTests.entry("draft 0", in: gone.journal).id, text: "draft 0, back")
        for journal in [gone, a, b, gone] { _ = try journal.journal.sync() }
        let held = try SyncTests.held(a.journal)
        #expect(held.map(\.text).sorted() == ["draft 0, back", "draft 6"])
        #expect(try SyncTests.held(b.journal) == held)
        #expect(try SyncTests.held(gone.journal) == held)
    }

    /// A journal told that a device is gone stops waiting for it at once, until it syncs again;
    /// what that device wrote meanwhile is kept.
    @Test func aDeviceForgottenIsNotWaitedForUntilItSyncsAgainAndLosesNothing() throws {
        let folder = try TemporaryFolder()
        let (a, b, gone) = (try TemporaryJournal(), try TemporaryJournal(), try TemporaryJournal())
        #expect(throws: JournalError.self) { _ = try a.journal.forgetSyncDevice(UUID()) }
        try a.journal.add(NewEntry(text: "draft 0"))
        let own = try a.journal.sync(through: folder.url).device
        _ = try b.journal.sync(through: folder.url)
        let device = try gone.journal.sync(through: folder.url).device
        #expect(try Self.edit(a, b, from: 1, rounds: 3).compacted == 0)
        for wrong in [own, UUID()] {
            #expect(throws: JournalError.self) { _ = try a.journal.forgetSyncDevice(wrong) }
        }
        let forgotten = try a.journal.forgetSyncDevice(device)
        #expect(forgotten.isForgotten && !forgotten.isWaitedFor && forgotten.lastSaid != nil)
        // Only a forgot it: a compacts once b has what a wrote, and its floors reach b.
        #expect(try b.journal.syncStatus().devices.allSatisfy { !$0.isForgotten && $0.isWaitedFor })
        #expect(try Self.edit(a, b, from: 4, rounds: 3).compacted == 0)
        #expect(try a.journal.sync().compacted > 0)
        _ = try b.journal.sync()
        #expect(try Self.versions(of: try SyncTests.entry("draft 6", in: b.journal), in: b.journal) == 1)
        // Back, it edits the entry from the version it holds, which the others removed: its
        // words are kept, on every journal, and it is waited for again.
        try gone.journal.edit(try SyncTests.entry("draft 0", in: gone.journal).id, text: "draft 0, back")
        for journal in [gone, a, b, gone] { _ = try journal.journal.sync() }
        let back = try #require(try a.journal.syncStatus().devices.first { $0.id == device })
        #expect(!back.isForgotten && back.isWaitedFor)
        let held = try SyncTests.held(a.journal)
        #expect(held.map(\.text).sorted() == ["draft 0, back", "draft 6"])
        #expect(try SyncTests.held(b.journal) == held)
        #expect(try SyncTests.held(gone.journal) == held)
    }
}

extension SyncCompactionTests {
    @Test(arguments: [nil, "correct horse"])
    func aByteChangedInWhatAJournalSaysItTookInIsReportedAndNothingIsRemovedOnItsWord(passphrase: String?) throws {
        let folder = try TemporaryFolder()
        let journals = try (0..<3).map { _ in try TemporaryJournal(passphrase: passphrase) }
        let (a, b, c) = (journals[0], journals[1], journals[2])
        try a.journal.add(NewEntry(text: "draft 0"))
        _ = try a.journal.sync(through: folder.url, passphrase: a.passphrase)
        let device = try b.journal.sync(through: folder.url, passphrase: b.passphrase).device
        _ = try c.journal.sync(through: folder.url, passphrase: c.passphrase)
        try c.journal.edit(try SyncTests.entry("draft 0", in: c.journal).id, text: "draft 1")
        _ = try c.journal.sync(passphrase: c.passphrase)
        // b takes c's edit in and says so; one byte of what it says changes.
        _ = try b.journal.sync(passphrase: b.passphrase)
        let url = SyncFolder(url: folder.url).takenURL(of: device)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: url)
        let report = try a.journal.sync(passphrase: a.passphrase)
        #expect(report.damaged == ["\(url.path):1"])
        #expect(report.compacted == 0)
        #expect(try Self.versions(of: try SyncTests.entry("draft 1", in: a.journal), in: a.journal) == 2)
    }
}

extension SyncCompactionTests {
    @Test func aSyncWithNothingNewLeavesWhatAJournalSaidItTookIn() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        try a.journal.add(NewEntry(text: "one"))
        let device = try a.journal.sync(through: folder.url).device
        _ = try b.journal.sync(through: folder.url)
        _ = try a.journal.sync()
        let url = SyncFolder(url: folder.url).takenURL(of: device)
        let said = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        for _ in 0..<3 { _ = try a.journal.sync() }
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int == said)
        // Something new taken in is said again.
        try b.journal.add(NewEntry(text: "two"))
        _ = try b.journal.sync()
        _ = try a.journal.sync()
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int != said)
    }
}

extension SyncCompactionTests {
    @Test func aFolderThisJournalCanReadButNotWriteInStillGivesItTheOthersChanges() throws {
        let folder = try TemporaryFolder()
        let (a, b) = (try TemporaryJournal(), try TemporaryJournal())
        let device = try b.journal.sync(through: folder.url).device
        try a.journal.add(NewEntry(text: "from a"))
        _ = try a.journal.sync(through: folder.url)
        // What b would say it took in can't be written (tests run as root: a folder is in the way).
        let taken = SyncFolder(url: folder.url).takenURL(of: device)
        try FileManager.default.removeItem(at: taken)
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: false)
        let report = try b.journal.sync()
        #expect(report.received == 1 && report.notCompacted != nil)
        #expect(try SyncTests.held(b.journal) == SyncTests.held(a.journal))
        try FileManager.default.removeItem(at: taken)
        #expect(try b.journal.sync().notCompacted == nil)
        #expect(SyncFolder(url: folder.url).taken(by: device, sealedBy: nil)?.values.first != nil)
    }
}
