import EncryptedVFSProbe
import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

/// What the encrypting VFS does with files that were cut, altered or mixed: an error naming
/// the file, never different data; the one loss it cannot tell from a crash (the log's last
/// transaction) loses whole transactions, never parts of them, and the journal reports it when
/// its search store applied them; and no two pages share a nonce, even across fork().
@Suite struct EncryptedFileDamageTests {
    private static let page = 4096

    /// Copies the journal's folder as it is (its WAL included, its WAL index not, so that the
    /// copy recovers its log when opened) into a new folder.
    private func copy(_ journal: TemporaryJournal) throws -> StoreDirectory {
        let copy = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-copy-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: journal.directory.url.path)
        where !name.hasSuffix("-shm") {
            try FileManager.default.copyItem(
                at: journal.directory.url.appendingPathComponent(name), to: copy.url.appendingPathComponent(name))
        }
        return copy
    }

    /// Opens the journal in `directory` and reads every entry and every page (verify).
    private func readEverything(_ directory: StoreDirectory, _ passphrase: Passphrase?) throws -> [Entry] {
        let journal = try Journal(directory: directory, create: false, passphrase: passphrase)
        defer { try? journal.close() }
        let entries = try journal.list(PageRequest(limit: 0)).entries
        let report = try journal.verify()
        if !report.isConsistent, !journal.notices.contains(where: { $0.contains("rebuil") }) {
            throw JournalError(.store, "inconsistent: \(report.problems)")
        }
        return entries
    }

    @Test func aStoreCutAtAnyPageBoundaryIsRefused() throws {
        let journal = try TemporaryJournal(passphrase: "cut anywhere")
        try journal.importTexts((0..<60).map { "entry \($0): " + String(repeating: "the quiet river ", count: 40) })
        journal.close()
        let url = journal.directory.mainStoreURL
        let original = try Data(contentsOf: url)
        let pages = original.count / Self.page
        #expect(pages >= 8)
        for kept in 1..<pages {
            try original.prefix(kept * Self.page).write(to: url)
            let error = #expect(throws: JournalError.self, "cut to \(kept) of \(pages) pages") {
                try readEverything(journal.directory, journal.passphrase)
            }
            #expect(error?.message.contains("journal.sqlite") == true, "cut to \(kept) pages: \(error?.message ?? "")")
        }
        // Emptied: not taken for a journal whose creation was cut short while its search store holds entries.
        try Data().write(to: url)
        #expect(throws: JournalError.self) { try readEverything(journal.directory, journal.passphrase) }
        try original.write(to: url)
        #expect(try readEverything(journal.directory, journal.passphrase).count == 60)
    }

    /// A page missing from the store while the WAL holds the journal's newest pages: the
    /// missing page is an error, not a page of zeros (which turned the tail of a long entry
    /// into NUL bytes, with `integrity_check` content).
    @Test func aPageMissingBeneathTheLogIsAnError() throws {
        let journal = try TemporaryJournal(passphrase: "beneath the log")
        try journal.importTexts((0..<200).map { "entry \($0) of the archive" })
        let long = String(repeating: "a long entry whose last page is the file's last. ", count: 184)
        try journal.journal.add(NewEntry(text: long))
        journal.close()
        // The file's last page is the last of the long entry's overflow pages, whose zeros would
        // read as the tail of its text.
        let (last, type) = try #require(
            try journal.reopen().main.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT pageno, pagetype FROM dbstat ORDER BY pageno DESC LIMIT 1").map {
                    (Int($0["pageno"] as Int64), $0["pagetype"] as String)
                }
            })
        let size = try Data(contentsOf: journal.directory.mainStoreURL).count
        #expect(type == "overflow" && last * Self.page == size, "\(type), page \(last) of \(size / Self.page)")
        try journal.journal.add(NewEntry(text: "a short entry, in the log"))
        let copy = try copy(journal)
        defer { try? FileManager.default.removeItem(at: copy.url) }
        journal.close()
        let store = try Data(contentsOf: copy.mainStoreURL)
        try store.prefix(store.count - Self.page).write(to: copy.mainStoreURL)
        // Every column of every entry (the text, and the canonical text whose last page this is).
        let error = #expect(throws: JournalError.self) {
            let opened = try Journal(directory: copy, create: false, passphrase: journal.passphrase)
            defer { try? opened.close() }
            let texts = try StoreDatabase.guarded(opened.main.url) {
                try opened.main.pool.read { db in try String.fetchAll(db, sql: "SELECT text || canonical FROM entry") }
            }
            #expect(texts.contains(long + Fold.canonical(long)), "the long entry read other than written")
        }
        #expect(error?.message.contains("journal.sqlite: page \(last) is missing") == true, "\(error?.message ?? "")")
    }

    /// A checkpoint cut by a power cut leaves store pages torn (their first sectors new, the
    /// rest old) that the log still holds whole, page 1 among them, whose header SQLite reads
    /// from the store before it opens the log: the journal opens and reads them from the log.
    /// Page 1 damaged when no log holds it is still an error.
    @Test func pagesTornByACutCheckpointAreReadFromTheLog() throws {
        let journal = try TemporaryJournal(passphrase: "torn beneath the log")
        try journal.importTexts((0..<200).map { "entry \($0) before the checkpoint" })
        journal.close()
        let opened = try journal.reopen()
        let added = (0..<20).map { "added \($0): " + String(repeating: "words that grow the store ", count: 60) }
        for text in added { try opened.add(NewEntry(text: text)) }
        let before = try Data(contentsOf: journal.directory.mainStoreURL)
        let copy = try copy(journal)
        defer { try? FileManager.default.removeItem(at: copy.url) }
        _ = try opened.main.pool.writeWithoutTransaction { db in try db.checkpoint(.full) }
        let after = try Data(contentsOf: journal.directory.mainStoreURL)
        journal.close()
        #expect(after.count > before.count, "the checkpoint grew the store")
        var torn = before
        var tornPages: [Int] = []
        for page in 0..<before.count / Self.page {
            let start = page * Self.page
            guard before[start..<start + Self.page] != after[start..<start + Self.page] else { continue }
            torn.replaceSubrange(start..<start + Self.page / 2, with: after[start..<start + Self.page / 2])
            tornPages.append(page + 1)
        }
        #expect(tornPages.first == 1, "page 1 torn among \(tornPages)")
        try torn.write(to: copy.mainStoreURL)
        let texts = try readEverything(copy, journal.passphrase).map(\.text)
        #expect(texts.count == 220 && added.allSatisfy(texts.contains))
        #expect(try readEverything(copy, journal.passphrase).count == 220, "again, after the checkpoint at close")

        let emptying = try Journal(directory: copy, create: false, passphrase: journal.passphrase)
        try emptying.main.checkpoint()
        try emptying.close()
        let log = StoreDirectory.fileSize(atPath: copy.mainStoreURL.path + "-wal") ?? 0
        #expect(log == 0, "no log holds page 1")
        var damaged = try Data(contentsOf: copy.mainStoreURL)
        damaged[50] ^= 0x01
        try damaged.write(to: copy.mainStoreURL)
        let error = #expect(throws: JournalError.self) { try readEverything(copy, journal.passphrase) }
        #expect(
            error?.message.contains("journal.sqlite: page 1 fails authentication") == true, "\(error?.message ?? "")")
    }

    /// A store whose pages are in its log, past its file's end (a new store, or one grown since
    /// its last checkpoint): SQLite reads a page it adds before it writes it, as when it makes a
    /// table in a store that gives pages back, and expects what SQLite's own VFS gives past the
    /// end of a file, zeros. Made, filled, dropped and remade in one transaction, then read again.
    @Test func pagesAddedPastTheFilesEndAreReadAsNew() throws {
        let journal = try TemporaryJournal(passphrase: "past the end")
        let url = journal.journal.search.url
        #expect(StoreDirectory.fileSize(atPath: url.path) == Self.page, "the new store's pages are in its log")
        try journal.journal.search.pool.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)")
                for index in 0..<3_000 {
                    try db.execute(
                        sql: "INSERT INTO scratch (text) VALUES (?)",
                        arguments: [String(repeating: "w\(index) ", count: 20)])
                }
                try db.execute(
                    sql: "CREATE TABLE scratch_by_text (text TEXT NOT NULL PRIMARY KEY, id INTEGER) WITHOUT ROWID")
                try db.execute(sql: "INSERT INTO scratch_by_text SELECT text, id FROM scratch")
                try db.execute(sql: "DROP TABLE scratch")
                try db.execute(sql: "ALTER TABLE scratch_by_text RENAME TO scratch")
                return .commit
            }
        }
        journal.close()
        let count = try journal.reopen().search.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM scratch")
        }
        #expect(count == 3_000)
        try journal.expectConsistent()
    }

    /// A journal of 50 entries whose main store's log holds three more commits, one entry each,
    /// copied as a crash would leave it (the logs, not their index): the copy, the log's bytes,
    /// where each commit's frames end, and the three texts.
    private func threeCommitsInTheLog() throws -> (
        journal: TemporaryJournal, copy: StoreDirectory, log: Data, ends: [Int], texts: [String]
    ) {
        let journal = try TemporaryJournal(passphrase: "three commits")
        try journal.importTexts((0..<50).map { "entry \($0) before the log" })
        journal.close()
        let opened = try journal.reopen()
        let wal = URL(fileURLWithPath: journal.directory.mainStoreURL.path + "-wal")
        let frame = 24 + Self.page
        var ends: [Int] = []
        var texts: [String] = []
        for commit in 0..<3 {
            let text = "commit \(commit): " + String(repeating: "words of the log ", count: 30 * (commit + 1))
            try opened.add(NewEntry(text: text))
            texts.append(text)
            ends.append((try Data(contentsOf: wal).count - 32) / frame)
        }
        let copyOfAll = try copy(journal)
        journal.close()
        let log = try Data(contentsOf: URL(fileURLWithPath: copyOfAll.mainStoreURL.path + "-wal"))
        return (journal, copyOfAll, log, ends, texts)
    }

    /// One byte changed in each frame of a log of three commits: a frame of the first two
    /// transactions (but the second's commit frame) is an error naming the log; one of the last
    /// transaction, or the frame that commits the one before, drops those transactions whole, as
    /// a crash while they were written would, every entry read is one that was written, and the
    /// journal names the entries dropped, which its search store had applied.
    @Test func oneByteChangedInEachFrameOfTheLogIsAnErrorOrAReportedLoss() throws {
        let (journal, copyOfAll, log, ends, texts) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copyOfAll.url) }
        let frame = 24 + Self.page
        #expect(ends[0] >= 1 && ends[0] < ends[1] && ends[1] < ends[2], "\(ends)")
        for index in 0..<ends[2] {
            let copy = try duplicate(copyOfAll)
            defer { try? FileManager.default.removeItem(at: copy.url) }
            var altered = log
            altered[32 + index * frame + 24 + 100] ^= 0x01
            try altered.write(to: URL(fileURLWithPath: copy.mainStoreURL.path + "-wal"))
            let transaction = ends.firstIndex { index < $0 }!
            let reported = transaction < 2 && index != ends[1] - 1
            if reported {
                let error = #expect(throws: JournalError.self, "frame \(index + 1)") {
                    try readEverything(copy, journal.passphrase)
                }
                #expect(
                    error?.message.contains("journal.sqlite-wal") == true, "frame \(index + 1): \(error?.message ?? "")"
                )
            } else {
                let opened = try Journal(directory: copy, create: false, passphrase: journal.passphrase)
                defer { try? opened.close() }
                let entries = try opened.list(PageRequest(limit: 0)).entries
                let kept = index == ends[1] - 1 ? 1 : 2
                #expect(entries.count == 50 + kept, "frame \(index + 1)")
                let found = Set(entries.map(\.text))
                #expect(texts.prefix(kept).allSatisfy(found.contains), "frame \(index + 1): the earlier commits whole")
                #expect(
                    entries.allSatisfy { $0.text.hasPrefix("entry") || texts.contains($0.text) }, "frame \(index + 1)")
                let lost = try opened.lostEntries()
                #expect(lost?.entries.map(\.number) == Array(Int64(51 + kept)...53), "frame \(index + 1)")
                #expect(opened.notices.contains { $0.contains("lacks change") }, "frame \(index + 1)")
                #expect(!(try opened.verify().isConsistent), "frame \(index + 1)")
            }
        }
    }

    /// One byte changed anywhere in the log's header, whose salts decide which frames SQLite
    /// reads: an error naming the log, never a log read as empty.
    @Test func oneByteChangedInTheLogsHeaderIsAnError() throws {
        let (journal, copyOfAll, log, _, _) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copyOfAll.url) }
        for index in 0..<32 {
            let copy = try duplicate(copyOfAll)
            defer { try? FileManager.default.removeItem(at: copy.url) }
            var altered = log
            altered[index] ^= 0x10
            try altered.write(to: URL(fileURLWithPath: copy.mainStoreURL.path + "-wal"))
            let error = #expect(throws: JournalError.self, "byte \(index)") {
                try readEverything(copy, journal.passphrase)
            }
            #expect(
                error?.message.contains("journal.sqlite-wal") == true
                    && error?.message.contains("header fails authentication") == true,
                "byte \(index): \(error?.message ?? "")")
        }
    }

    /// The search store's log with an altered header: the search store, derived from the
    /// entries, is rebuilt (and says so), and every entry is found.
    @Test func aSearchStoresLogWithAnAlteredHeaderIsRebuilt() throws {
        let (journal, copyOfAll, _, _, texts) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copyOfAll.url) }
        let wal = URL(fileURLWithPath: copyOfAll.searchStoreURL.path + "-wal")
        var log = try Data(contentsOf: wal)
        #expect(log.count > 32)
        log[16] ^= 0x10
        try log.write(to: wal)
        let opened = try Journal(directory: copyOfAll, create: false, passphrase: journal.passphrase)
        defer { try? opened.close() }
        #expect(
            opened.notices.contains { $0.contains("search.sqlite-wal: the header fails authentication") },
            "\(opened.notices)")
        #expect(try opened.search("commit").total == texts.count)
        #expect(try opened.verify().isConsistent)
    }

    /// A log whose header holds SQLite's own checksum, as an earlier version of the layout wrote
    /// it (left by a process of that version), is read while it is its first frame's header; with
    /// its salts or byte order changed (the checksum made to match), it is an error.
    @Test func aLogHeaderOfTheEarlierLayoutIsReadOnlyAsItsFramesHeader() throws {
        let (journal, copyOfAll, log, _, texts) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copyOfAll.url) }
        func earlier(_ header: Data) -> Data {
            var header = header
            var (s0, s1): (UInt32, UInt32) = (0, 0)
            let bigEndian = header[3] & 1 == 1
            for offset in stride(from: 0, to: 24, by: 8) {
                func word(_ at: Int) -> UInt32 {
                    let bytes = (0..<4).map { UInt32(header[at + $0]) }
                    return bigEndian
                        ? bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
                        : bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0]
                }
                s0 = s0 &+ word(offset) &+ s1
                s1 = s1 &+ word(offset + 4) &+ s0
            }
            for (index, value) in [s0, s1].enumerated() {
                for byte in 0..<4 {
                    header[24 + index * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte))
                }
            }
            return header
        }
        let walPath = { (copy: StoreDirectory) in URL(fileURLWithPath: copy.mainStoreURL.path + "-wal") }
        let asWritten = try duplicate(copyOfAll)
        defer { try? FileManager.default.removeItem(at: asWritten.url) }
        try (earlier(log.prefix(32)) + log.dropFirst(32)).write(to: walPath(asWritten))
        let entries = try readEverything(asWritten, journal.passphrase)
        #expect(entries.count == 53 && texts.allSatisfy(Set(entries.map(\.text)).contains))
        for (name, byte) in [("a salt", 17), ("the byte order", 3)] {
            let changed = try duplicate(copyOfAll)
            defer { try? FileManager.default.removeItem(at: changed.url) }
            var header = log.prefix(32)
            header[byte] ^= 0x01
            try (earlier(header) + log.dropFirst(32)).write(to: walPath(changed))
            let error = #expect(throws: JournalError.self, "\(name) changed") {
                try readEverything(changed, journal.passphrase)
            }
            #expect(error?.message.contains("header fails authentication") == true, "\(name): \(error?.message ?? "")")
        }
    }

    private func duplicate(_ directory: StoreDirectory) throws -> StoreDirectory {
        let copy = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-copy-\(UUID().uuidString)"))
        try FileManager.default.copyItem(at: directory.url, to: copy.url)
        return copy
    }

    /// A store whose setting up was cut short (its first page written, its rollback journal
    /// sealed under a key that died with its process): set up anew, where it stayed a page that
    /// never authenticates. Left so by `init --encrypt` killed at that moment.
    @Test func aStoreWhoseSettingUpWasCutShortIsSetUpAgain() throws {
        let journal = try TemporaryJournal(passphrase: "cut while setting up")
        journal.close()
        for name in try FileManager.default.contentsOfDirectory(atPath: journal.directory.url.path)
        where name.hasPrefix("journal.sqlite") || name.hasPrefix("search.sqlite") {
            try FileManager.default.removeItem(at: journal.directory.url.appendingPathComponent(name))
        }
        let random = { (count: Int) in Data((0..<count).map { _ in UInt8.random(in: 0...255) }) }
        try random(Self.page).write(to: journal.directory.mainStoreURL)
        try random(512).write(to: URL(fileURLWithPath: journal.directory.mainStoreURL.path + "-journal"))
        let reopened = try journal.reopen()
        try reopened.add(NewEntry(text: "written after the setting up was done again"))
        #expect(try reopened.list().total == 1)
        #expect(!FileManager.default.fileExists(atPath: journal.directory.mainStoreURL.path + "-journal"))
        try journal.expectConsistent()
    }

    @Test func aPageOfTheOtherStoreIsRefused() throws {
        let journal = try TemporaryJournal(passphrase: "two stores")
        try journal.importTexts((0..<300).map { "entry \($0) between the stores" })
        journal.close()
        let main = try Data(contentsOf: journal.directory.mainStoreURL)
        let search = try Data(contentsOf: journal.directory.searchStoreURL)
        var mixed = main
        mixed.replaceSubrange(Self.page..<2 * Self.page, with: search[Self.page..<2 * Self.page])
        try mixed.write(to: journal.directory.mainStoreURL)
        #expect(throws: JournalError.self) { try readEverything(journal.directory, journal.passphrase) }
    }

    /// A page written by a process and one written by its fork() child, through the same open
    /// file, are sealed under different nonces (a count kept in the process would repeat).
    @Test func aForkedWritersNoncesDoNotRepeat() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-fork-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var nonces = [UInt8](repeating: 0, count: 72)
        #expect(encrypted_vfs_probe_fork_nonces(path, &nonces) == 0)
        let sealed = stride(from: 0, to: 72, by: 24).map { Array(nonces[$0..<$0 + 24]) }
        #expect(Set(sealed).count == 3, "\(sealed)")
        #expect(!sealed.contains(Array(repeating: 0, count: 24)))
    }
}
