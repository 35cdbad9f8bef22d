import Foundation
import Testing

@testable import JournalKit

/// A plain journal's main store whose log holds three commits not yet copied into the store,
/// opened as after a crash (the log's index gone), with one byte of its log changed: the header,
/// or any frame. SQLite alone would read the log as empty, or as ending at the damage, and drop
/// transactions reported done. Each case must end in an error naming the log (nothing opened,
/// nothing changed), or in a loss the journal names (its search store applied what was dropped):
/// never entries gone in silence.
@Suite struct WriteAheadLogCheckTests {
    private static let frame = 24 + 4096

    /// A journal of 20 entries and three commits in its main store's log, copied as a crash
    /// leaves it: the copy, the log, where each commit's frames end, the texts committed.
    private func threeCommitsInTheLog() throws -> (
        journal: TemporaryJournal, copy: StoreDirectory, log: Data, ends: [Int], texts: [String]
    ) {
        let journal = try TemporaryJournal()
        try journal.importTexts((0..<20).map { "entry \($0) before the log" })
        journal.close()
        let opened = try journal.reopen()
        let wal = URL(fileURLWithPath: journal.directory.mainStoreURL.path + "-wal")
        var ends: [Int] = []
        var texts: [String] = []
        for commit in 0..<3 {
            let text = "commit \(commit): " + String(repeating: "words of the log ", count: 30 * (commit + 1))
            try opened.add(NewEntry(text: text))
            texts.append(text)
            ends.append((try Data(contentsOf: wal).count - 32) / Self.frame)
        }
        let copy = try Self.copy(journal.directory, leavingOut: "-shm")
        journal.close()
        let log = try Data(contentsOf: URL(fileURLWithPath: copy.mainStoreURL.path + "-wal"))
        return (journal, copy, log, ends, texts)
    }

    /// The folder's files copied into a new folder, but those whose names end in `leavingOut`.
    private static func copy(_ directory: StoreDirectory, leavingOut suffix: String? = nil) throws -> StoreDirectory {
        let copy = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-copy-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        where suffix.map({ !name.hasSuffix($0) }) ?? true {
            try FileManager.default.copyItem(
                at: directory.url.appendingPathComponent(name), to: copy.url.appendingPathComponent(name))
        }
        return copy
    }

    /// The copy with its main store's log replaced by `log`.
    private func withLog(_ log: Data, from copy: StoreDirectory) throws -> StoreDirectory {
        let altered = try Self.copy(copy)
        try log.write(to: URL(fileURLWithPath: altered.mainStoreURL.path + "-wal"))
        return altered
    }

    @Test func oneByteChangedInTheHeaderIsAnError() throws {
        let (_, copy, log, _, _) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copy.url) }
        for index in 0..<32 {
            var changed = log
            changed[index] ^= 0x10
            let altered = try withLog(changed, from: copy)
            defer { try? FileManager.default.removeItem(at: altered.url) }
            let error = #expect(throws: JournalError.self, "byte \(index)") {
                try Journal(directory: altered, create: false)
            }
            #expect(
                error?.message.contains("journal.sqlite-wal is damaged") == true,
                "byte \(index): \(error?.message ?? "")")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: altered.mainStoreURL.path + "-wal")) == changed,
                "byte \(index): the log is left as it was")
        }
    }

    /// A frame of the first two transactions (but the second's commit frame) is an error; one
    /// of the last transaction, or the frame that commits the one before, drops transactions
    /// whole, as a crash would, and the journal names the entries they held.
    @Test func oneByteChangedInAnyFrameIsAnErrorOrANamedLoss() throws {
        let (_, copy, log, ends, texts) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copy.url) }
        #expect(ends[0] >= 1 && ends[0] < ends[1] && ends[1] < ends[2], "\(ends)")
        for index in 0..<ends[2] {
            var changed = log
            changed[32 + index * Self.frame + 24 + 100] ^= 0x01
            let altered = try withLog(changed, from: copy)
            defer { try? FileManager.default.removeItem(at: altered.url) }
            let transaction = ends.firstIndex { index < $0 }!
            if transaction < 2 && index != ends[1] - 1 {
                let error = #expect(throws: JournalError.self, "frame \(index + 1)") {
                    try Journal(directory: altered, create: false)
                }
                #expect(
                    error?.message.contains("journal.sqlite-wal is damaged") == true,
                    "frame \(index + 1): \(error?.message ?? "")")
            } else {
                let journal = try Journal(directory: altered, create: false)
                defer { try? journal.close() }
                let kept = index == ends[1] - 1 ? 1 : 2
                let entries = try journal.list(PageRequest(limit: 0)).entries
                #expect(entries.count == 20 + kept, "frame \(index + 1)")
                #expect(texts.prefix(kept).allSatisfy(Set(entries.map(\.text)).contains), "frame \(index + 1)")
                #expect(
                    try journal.lostEntries()?.entries.map(\.number) == Array(Int64(21 + kept)...23),
                    "frame \(index + 1)")
                #expect(throws: JournalError.self, "frame \(index + 1): no write") {
                    try journal.add(NewEntry(text: "after the loss"))
                }
            }
        }
    }

    /// The log left by a clean run, and one still in use by another connection (whose index
    /// SQLite reads instead of the header), open as they are.
    @Test func anIntactLogOrOneInUseOpens() throws {
        let (journal, copy, log, _, texts) = try threeCommitsInTheLog()
        defer { try? FileManager.default.removeItem(at: copy.url) }
        let opened = try Journal(directory: copy, create: false)
        #expect(try opened.list(PageRequest(limit: 0)).total == 23)
        try opened.close()

        let held = try journal.reopen()
        try held.add(NewEntry(text: texts[0] + " again"))
        var changed = try Data(contentsOf: URL(fileURLWithPath: journal.directory.mainStoreURL.path + "-wal"))
        #expect(changed.count > 32 && log.count > 32)
        changed[16] ^= 0x10
        try changed.write(to: URL(fileURLWithPath: journal.directory.mainStoreURL.path + "-wal"))
        let second = try Journal(directory: journal.directory, create: false)
        #expect(try second.list(PageRequest(limit: 0)).total == 24)
        try second.close()
    }
}
