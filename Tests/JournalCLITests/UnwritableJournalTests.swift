import Foundation
import GRDB
import JournalKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A journal on a file system that is read-only, or has no room left: a small tmpfs made for
/// the test, in plain text and encrypted. Needs root (to mount); CI runs as root. (A folder
/// the user may not write is in `BadInputTests`.)
@Suite(.serialized, .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
struct UnwritableJournalTests {
    /// The sample journal, made once, copied onto the small file system for every case.
    private static func sampleJournal(encrypted: Bool = false) throws -> JournalProcess {
        let journal = encrypted ? try JournalProcess.encrypted() : JournalProcess()
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/sample.jsonl")
        #expect(try journal.run(["import", corpus.path]).status == 0)
        return journal
    }

    @Test(arguments: [false, true]) func readsAnswerOnAReadOnlyFileSystem(encrypted: Bool) throws {
        let sample = try Self.sampleJournal(encrypted: encrypted)
        defer { sample.removeStore() }
        let disk = try SmallFileSystem(kilobytes: 2048)
        defer { disk.remove() }
        let journal = try disk.copy(sample)
        try disk.makeReadOnly()
        let found = try journal.run(["search", "東京", "--json"])
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
        #expect(
            try found.json()["total"] as? Int == (try sample.run(["search", "東京", "--json"]).json()["total"] as? Int))
        #expect(
            try journal.run(["search", "cafe", "--strategy", SearchStrategies[.containsN].alias, "--json"]).status == 0)
        #expect(try journal.run(["list", "--json"]).json()["total"] as? Int == 300)
        #expect(try journal.run(["show", "p300"]).status == 0)
        #expect(try journal.run(["stats", "--json"]).json()["entries"] as? Int == 300)
        #expect(try journal.run(["verify"]).status == 0)
        for write in [["add", "x"], ["delete", "p1"], ["edit", "p1", "--text", "y"], ["reindex"]] {
            let refused = try journal.run(write)
            #expect(refused.status == 1, "\(write)")
            #expect(
                refused.error
                    == "journal: the journal in \(journal.store.path) cannot be written: Read-only file system\n",
                "\(write)")
        }
    }

    /// A store from before the index that counts a short word's entries without reading them,
    /// and before the blocks of lengths, is used as it is where it can't be written: they make
    /// reads faster, not possible.
    @Test func aStoreFromBeforeTheCountIndexAnswersOnAReadOnlyFileSystem() throws {
        let sample = try Self.sampleJournal()
        defer { sample.removeStore() }
        let queries = ["t", "東京", "caf"]
        let references = try queries.map { try sample.run(["search", $0, "--limit", "3", "--json"]).json() }
        let ranked = ["search", "caf", "--sort", "relevance", "--limit", "5", "--json"]
        let rankedReference = try sample.run(ranked).json()
        // The sample made as before the index, then copied: the test process never opens a file
        // of the small file system, so no child process of another test can hold one open for
        // writing (which makes a read-only remount fail).
        let search = try DatabaseQueue(path: sample.store.appendingPathComponent("search.sqlite").path)
        try search.write { db in
            try db.execute(sql: "DROP INDEX prefix_posting_count")
            try db.execute(sql: "DROP TABLE document_length")
            try db.execute(
                sql:
                    "DELETE FROM grdb_migrations WHERE identifier IN ('v5-prefix-posting-counts', 'v8-document-lengths')"
            )
        }
        try search.close()
        let disk = try SmallFileSystem(kilobytes: 2048)
        defer { disk.remove() }
        let journal = try disk.copy(sample)
        try disk.makeReadOnly()
        let ids = { (answer: [String: Any]) in
            (answer["results"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        }
        for (query, reference) in zip(queries, references) {
            let found = try journal.run(["search", query, "--limit", "3", "--json"])
            #expect(found.status == 0 && found.error.isEmpty, "\(query): \(found.error)")
            #expect(try found.json()["total"] as? Int == reference["total"] as? Int, "\(query)")
            #expect(try ids(found.json()) == ids(reference), "\(query)")
        }
        let rankedFound = try journal.run(ranked)
        #expect(rankedFound.status == 0 && rankedFound.error.isEmpty, "\(rankedFound.error)")
        let scores = { (answer: [String: Any]) in
            (answer["results"] as? [[String: Any]])?.compactMap { $0["score"] as? Double }
        }
        #expect(try ids(rankedFound.json()) == ids(rankedReference))
        #expect(try scores(rankedFound.json()) == scores(rankedReference))
        #expect(scores(rankedReference)?.count == 5)
        #expect(try journal.run(["verify"]).status == 0)
    }

    /// A search store of an earlier format, which this version changes when it opens it, on a
    /// read-only file system: an error that names the file and says what to do, not one about
    /// a write, and nothing changed.
    @Test func aStoreOfAnEarlierFormatOnAReadOnlyFileSystemSaysSo() throws {
        let sample = try Self.sampleJournal()
        defer { sample.removeStore() }
        let search = try DatabaseQueue(path: sample.store.appendingPathComponent("search.sqlite").path)
        try search.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v13-days-in-date-order'")
        }
        try search.close()
        let disk = try SmallFileSystem(kilobytes: 2048)
        defer { disk.remove() }
        let journal = try disk.copy(sample)
        try disk.makeReadOnly()
        let found = try journal.run(["search", "t", "--limit", "3", "--json"])
        #expect(found.status != 0)
        #expect(found.error.contains("search.sqlite is in an earlier format"), "\(found.error)")
        #expect(found.error.contains("open it once where it can be written"), "\(found.error)")
    }

    @Test(arguments: [false, true]) func readsAnswerWhenTheDiskIsFull(encrypted: Bool) throws {
        let sample = try Self.sampleJournal(encrypted: encrypted)
        defer { sample.removeStore() }
        let disk = try SmallFileSystem(kilobytes: 2048)
        defer { disk.remove() }
        let journal = try disk.copy(sample)
        try disk.fill(leaving: 0)
        let found = try journal.run(["search", "café", "--json"])
        #expect(found.status == 0, "\(found.error)")
        #expect(
            try found.json()["total"] as? Int == (try sample.run(["search", "café", "--json"]).json()["total"] as? Int))
        #expect(try journal.run(["list", "--json"]).json()["total"] as? Int == 300)
        #expect(try journal.run(["show", "p1"]).status == 0)
        #expect(try journal.run(["stats", "--json"]).json()["entries"] as? Int == 300)
        let add = try journal.run(["add", "no room for this"])
        #expect(add.status == 1)
        #expect(add.error.hasPrefix("journal: the journal in \(journal.store.path) cannot be written"), "\(add.error)")
        try disk.emptyFiller()
        #expect(try journal.run(["list", "--json"]).json()["total"] as? Int == 300, "the refused add left nothing")
    }

    /// For every amount of room left, an add either fails and leaves nothing, or succeeds and
    /// the entry is there; when the entry fits but its indexing doesn't, the add succeeds,
    /// says the index is behind, and the next command with room catches up. Both of the
    /// interesting outcomes must occur over the range.
    @Test(arguments: [false, true]) func anAddIsSavedWholeOrRefusedWhateverRoomIsLeft(encrypted: Bool) throws {
        let sample = try Self.sampleJournal(encrypted: encrypted)
        defer { sample.removeStore() }
        let disk = try SmallFileSystem(kilobytes: 2048)
        defer { disk.remove() }
        var random = SystemRandomNumberGenerator()
        let words = (0..<3_000).map { index in
            "w\(index)"
                + String((0..<8).map { _ in Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &random))) })
        }
        var refused = 0
        var savedBehind = 0
        for room in stride(from: 0, through: 480, by: 16) {
            let journal = try disk.copy(sample)
            try disk.fill(leaving: room)
            let marker = "marker\(room)x"
            let add = try journal.run(["add", ([marker] + words).joined(separator: " ")])
            try disk.emptyFiller()
            let listed = try journal.run(["list", "--limit", "1", "--json"]).json()
            let newest = ((listed["results"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            if add.status == 0 {
                #expect(listed["total"] as? Int == 301, "room \(room) KB: reported saved")
                #expect(newest.hasPrefix(marker), "room \(room) KB")
                if add.error.contains("the search index is behind") { savedBehind += 1 }
                #expect(
                    try journal.run(["search", marker, "--json"]).json()["total"] as? Int == 1,
                    "room \(room) KB: caught up")
            } else {
                refused += 1
                #expect(add.status == 1 && add.error.split(separator: "\n").count == 1, "room \(room) KB: \(add.error)")
                #expect(listed["total"] as? Int == 300, "room \(room) KB: reported failed, yet written")
            }
            #expect(try journal.run(["verify"]).status == 0, "room \(room) KB")
        }
        #expect(refused > 0, "no amount of room refused the add: the range is too large")
        #expect(savedBehind > 0, "no amount of room saved the entry without indexing it")
    }
}

/// A tmpfs of a few megabytes mounted on a new folder, and a filler file that uses its room.
struct SmallFileSystem {
    let mountPoint: URL
    private var filler: URL { mountPoint.appendingPathComponent("filler") }

    static let canMount: Bool = {
        guard geteuid() == 0, let disk = try? SmallFileSystem(kilobytes: 64) else { return false }
        disk.remove()
        return true
    }()

    init(kilobytes: Int) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-small-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard mount("tmpfs", mountPoint.path, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: mountPoint)
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "mount: \(reason)"])
        }
    }

    /// A fresh copy of `journal`'s folder on this file system, replacing the last one, run as
    /// `journal` is (an encrypted one with its passphrase).
    func copy(_ journal: JournalProcess) throws -> JournalProcess {
        let target = mountPoint.appendingPathComponent("journal")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: journal.store, to: target)
        return JournalProcess(store: target, environment: journal.environment)
    }

    /// Writes a filler file until only `kilobytes` of room are left.
    func fill(leaving kilobytes: Int) throws {
        var stats = statvfs()
        guard statvfs(mountPoint.path, &stats) == 0 else { throw CocoaError(.fileReadUnknown) }
        let room = Int(stats.f_bavail) * Int(stats.f_frsize) - kilobytes * 1024
        guard room > 0 else { return }
        #expect(FileManager.default.createFile(atPath: filler.path, contents: Data(count: room)))
    }

    /// Remounts the file system read-only. A file on it still open for writing makes that fail
    /// (EBUSY): a child process that another test spawned while this one copied a file may
    /// hold it open for as long as it runs, so a busy remount is tried again for a while.
    func makeReadOnly() throws {
        for _ in 0..<100 {
            if mount("tmpfs", mountPoint.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 { return }
            guard errno == EBUSY else { break }
            usleep(100_000)
        }
        throw CocoaError(
            .fileWriteNoPermission,
            userInfo: [NSLocalizedDescriptionKey: "remount: \(String(cString: strerror(errno)))"])
    }

    func emptyFiller() throws { try? FileManager.default.removeItem(at: filler) }

    func remove() {
        _ = umount(mountPoint.path)
        try? FileManager.default.removeItem(at: mountPoint)
    }
}
