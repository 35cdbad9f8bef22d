import Foundation
import Testing

@testable import JournalKit

/// An import written in steps: no read sees any of it before its last step commits; one that
/// fails on its input or is cancelled takes back what its steps wrote; one that fails otherwise
/// (its disk) stays pending, as one left by a kill does; one left pending (its process killed)
/// refuses other writes, goes on where it stopped when run again with the same input, refuses
/// another input, and can be abandoned.
@Suite(.hangGuard) struct PendingImportTests {
    /// What reads show of a journal: list and export totals, every strategy's total for a
    /// word every entry has, and the tags with their counts and the forms they are shown in.
    private struct ReadView: Equatable {
        let listed: Int
        let exported: Int
        let searched: [String: Int]
        let tags: [String: Int]
        let shownForms: [String]
    }

    private func readView(of journal: Journal) throws -> ReadView {
        var exported = 0
        try journal.forEachEntry { exported += $0.count }
        var searched: [String: Int] = [:]
        for strategy in SearchStrategies.all {
            searched[strategy.name] = try journal.search(SearchQuery("zebra"), strategy: strategy).total
        }
        let tags = try journal.tags()
        return ReadView(
            listed: try journal.list().total, exported: exported, searched: searched,
            tags: Dictionary(uniqueKeysWithValues: tags.map { ($0.name, $0.entries) }),
            shownForms: tags.map(\.tag.written).sorted())
    }

    /// A journal of three entries, and a file of `count` more (each with the word, a tag the
    /// three lack, and one of theirs written otherwise), dated, then `trailer` as its last line.
    private func journalAndInput(_ count: Int, trailer: String? = nil) throws -> (TemporaryJournal, URL) {
        let store = try TemporaryJournal()
        for index in 0..<3 { try store.journal.add(NewEntry(text: "kept zebra \(index) #kept")) }
        var lines = (0..<count).map(line)
        if let trailer { lines.append(trailer) }
        let file = store.directory.url.appendingPathComponent("input-\(UUID().uuidString).jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        return (store, file)
    }

    /// The input's line for entry `index` (below 10,000): every line has the same length.
    private func line(_ index: Int) -> String {
        #"{"date": "2020-01-01T00:00:\#(String(format: "%02d", index % 60))Z", "text": "zebra number \#(String(format: "%04d", index)) #imported #KEPT"}"#
    }

    /// Steps of 400 lines: a step takes batches until it has read this much, and a batch reads
    /// lines until it has this much.
    private var stepBytes: Int { 400 * line(0).utf8.count }

    @Test func noReadSeesAnImportBeforeItsLastStep() throws {
        // 1,200 lines are three steps of 400: the first two commit before the last begins.
        let (store, file) = try journalAndInput(1_200)
        let other = try Journal(directory: store.directory)
        let before = try readView(of: other)  // builds the FTS5 peer, which a search during a step could not
        let during = ReadLog<ReadView>()
        let summary = try store.journal.importFile(
            atPath: file.path, format: nil, password: nil, keepingDuplicates: false,
            progress: { progress in
                guard progress.phase == .importing else { return }
                do {
                    during.record(try readView(of: other), try other.pendingImport())
                } catch {
                    Issue.record("a read during the import failed: \(error)")
                }
            }, cancellation: nil, stepBytes: stepBytes)
        #expect(summary.count == 1_200)
        let seen = during.reads
        #expect(seen.count == 3)
        for (view, _) in seen { #expect(view == before) }
        #expect(seen[0].1 == nil, "the first step had not committed")
        let pending = try #require(seen[2].1)
        #expect(pending.written == 800 && pending.isUnderWay && pending.firstEntry == 4)
        let after = try readView(of: other)
        #expect(after.listed == 1_203 && after.exported == 1_203)
        #expect(after.searched.values.allSatisfy { $0 == 1_203 }, "\(after.searched)")
        #expect(after.tags == ["kept": 1_203, "imported": 1_200])
        #expect(before.shownForms == ["kept"] && after.shownForms == ["KEPT", "imported"])
        #expect(try other.pendingImport() == nil)
        #expect(try store.journal.verify().isConsistent)
    }

    @Test(arguments: ["a bad last line", "cancelled"])
    func anImportThatFailsTakesBackWhatItsStepsWrote(_ how: String) throws {
        let (store, file) = try journalAndInput(1_200, trailer: #"{"text": 5}"#)
        let before = try readView(of: store.journal)
        let cancellation = Cancellation()
        #expect(throws: JournalError.self) {
            try store.journal.importFile(
                atPath: file.path, format: nil, password: nil, keepingDuplicates: false,
                progress: { progress in
                    if how == "cancelled", progress.phase == .importing, progress.done > stepBytes {
                        cancellation.cancel()
                    }
                }, cancellation: cancellation, stepBytes: stepBytes)
        }
        #expect(try store.journal.pendingImport() == nil)
        #expect(try readView(of: store.journal) == before)
        #expect(try store.journal.main.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM main.entry") } == 3)
        #expect(try store.journal.verify().isConsistent)
        try store.journal.add(NewEntry(text: "written after"))
    }

    /// An input that fails once `batches` of its batches were taken, as a disk that fails under
    /// a file would: a failure of the input's reading, not of what it holds.
    final class FailingInput: ImportSource {
        private let reader: JSONLinesReader
        private var left: Int

        init(_ reader: JSONLinesReader, failingAfter batches: Int) {
            self.reader = reader
            left = batches
        }

        func nextBatch(bytes: Int) throws(JournalError) -> [NumberedLine]? {
            guard left > 0 else { throw JournalError(.store, "cannot read the input: Input/output error") }
            left -= 1
            return try reader.nextBatch(bytes: bytes)
        }

        static func entry(from item: NumberedLine, undated: UndatedEntryDate) -> Result<ImportedEntry?, JournalError> {
            JSONLinesReader.entry(from: item, undated: undated)
        }

        var undatedEntries: UndatedEntryDate { reader.undatedEntries }
        var bytesRead: Int { reader.bytesRead }
        var totalBytes: Int? { reader.totalBytes }
        var position: ImportPosition { reader.position }
        func skip(to position: ImportPosition) throws(JournalError) -> Bool { try reader.skip(to: position) }
    }

    /// A failure that is not the input's (its disk, a lock) takes nothing back: the steps
    /// committed stay pending, the error says how to finish, and the same import run again does.
    @Test func anImportThatFailsOtherwiseStaysPendingAndGoesOn() throws {
        let (store, file) = try journalAndInput(1_200)
        let before = try readView(of: store.journal)
        // Batches of a 400-line step's bytes: the failure comes in the third step.
        let failing = FailingInput(try JSONLinesReader(path: file.path), failingAfter: 2)
        let error = #expect(throws: JournalError.self) {
            try store.journal.importEntries(
                from: failing, input: file.path, keepingDuplicates: false, progress: nil, cancellation: nil,
                stepBytes: stepBytes)
        }
        #expect(error?.kind == .store)
        #expect(error?.message.contains("run the same import again") == true, "\(error?.message ?? "")")
        let pending = try #require(try store.journal.pendingImport())
        #expect(pending.written == 800 && !pending.isUnderWay)
        #expect(try readView(of: store.journal) == before)
        let summary = try store.journal.importFile(
            atPath: file.path, format: nil, password: nil, keepingDuplicates: false, progress: nil,
            cancellation: nil, stepBytes: stepBytes)
        #expect(summary.count == 1_200 && summary.resumed == 800)
        #expect(try store.journal.list().total == 1_203)
        #expect(try store.journal.verify().isConsistent)
    }

    /// The state a kill leaves: the first `lines` lines of `file` written in a step that
    /// committed, the import not finished.
    private func interruptedImport(of file: URL, lines: Int, in journal: Journal) throws {
        let reader = try JSONLinesReader(path: file.path)
        let batch = try #require(try reader.nextBatch(targetBytes: .max, maxLines: lines))
        let start = PendingImport(
            input: file.path, firstEntry: nil, written: 0, alreadyPresent: 0, empty: 0, bytesRead: 0,
            totalBytes: reader.totalBytes, position: ImportPosition(offset: 0, line: 0, digest: ""))
        _ = try journal.main.writeImportStep(start, MainStore.WriteHooks(pruningThrough: 0)) { insert in
            for line in batch {
                _ = try insert(
                    Journal.prepare(try JSONLinesReader.entry(from: line, undated: reader.undatedEntries).get()!.entry))
            }
            return MainStore.ImportStepEnd(
                position: reader.position, bytesRead: reader.bytesRead, empty: 0, finished: false)
        }
    }

    @Test func aPendingImportRefusesOtherWritesAndGoesOnWithTheSameInput() throws {
        let (store, file) = try journalAndInput(5_000)
        let before = try readView(of: store.journal)
        try interruptedImport(of: file, lines: 1_200, in: store.journal)
        let journal = try store.reopen()
        #expect(try readView(of: journal) == before)
        let pending = try #require(try journal.pendingImport())
        #expect(pending.written == 1_200 && !pending.isUnderWay && pending.input == file.path)
        #expect(try journal.verify().isConsistent, "verify counts the pending import's tags")
        let first = EntryID(storeID: journal.storeID, number: 1)
        let refused = { (error: any Error) in (error as? JournalError)?.kind == .importPending }
        #expect(performing: { try journal.add(NewEntry(text: "refused")) }, throws: refused)
        #expect(performing: { try journal.delete(first) }, throws: refused)
        #expect(performing: { try journal.addTags(["x"], to: first) }, throws: refused)
        // Another input is refused, and changes nothing.
        let (otherStore, otherFile) = try journalAndInput(10)
        defer { withExtendedLifetime(otherStore) {} }
        #expect {
            try journal.importFile(atPath: otherFile.path)
        } throws: { error in
            let error = error as? JournalError
            return error?.kind == .importPending && error?.message.contains("not the same") == true
        }
        #expect(try journal.pendingImport()?.written == 1_200)
        // The same input goes on where it stopped.
        let summary = try journal.importFile(atPath: file.path)
        #expect(summary.count == 5_000 && summary.resumed == 1_200 && summary.ids == 4...5_003)
        let after = try readView(of: journal)
        #expect(after.listed == 5_003 && after.searched.values.allSatisfy { $0 == 5_003 })
        #expect(try journal.verify().isConsistent)
        // And then it is in the journal: imported again, it adds nothing.
        #expect(try journal.importFile(atPath: file.path).alreadyPresent == 5_000)
    }

    @Test func aDocumentReadWholeGoesOnFromTheEntryWhereItStopped() throws {
        let store = try TemporaryJournal()
        let document = Data(JrnlJSONTests.export.utf8)
        let file = store.directory.url.appendingPathComponent("export.json")
        try document.write(to: file)
        // Killed after its first entry: the position is an entry count, with the digest of the
        // whole document.
        let first = try #require(try JrnlJSON.entries(in: document).first ?? nil)
        let start = PendingImport(
            input: file.path, firstEntry: nil, written: 0, alreadyPresent: 0, empty: 0, bytesRead: 0,
            totalBytes: document.count, position: ImportPosition(offset: 0, line: 0, digest: ""))
        _ = try store.journal.main.writeImportStep(start, MainStore.WriteHooks(pruningThrough: 0)) { insert in
            _ = try insert(Journal.prepare(first.entry))
            return MainStore.ImportStepEnd(
                position: ImportPosition(offset: 1, line: 1, digest: InputDigest.of(document)), bytesRead: 0,
                empty: 0, finished: false)
        }
        #expect(try store.journal.list().total == 0)
        // The same document with one byte changed is another input.
        var changed = document
        changed[changed.count - 2] = 0x20
        let other = store.directory.url.appendingPathComponent("changed.json")
        try changed.write(to: other)
        #expect {
            try store.journal.importFile(atPath: other.path)
        } throws: { error in
            (error as? JournalError)?.kind == .importPending
        }
        let summary = try store.journal.importFile(atPath: file.path)
        #expect(summary.count == 2 && summary.resumed == 1 && summary.empty == 1)
        let texts = try store.journal.list().entries.map(\.text)
        #expect(texts.count == 2 && texts.contains { $0.hasPrefix("Entry the first.") })
        #expect(texts.contains { $0.hasPrefix("Learning @c++ today.") })
        #expect(try store.journal.verify().isConsistent)
    }

    @Test func aPendingImportCanBeAbandoned() throws {
        let (store, file) = try journalAndInput(3_000)
        let before = try readView(of: store.journal)
        try interruptedImport(of: file, lines: 2_500, in: store.journal)
        let abandoned = try #require(try store.journal.abandonPendingImport())
        #expect(abandoned.written == 2_500)
        #expect(try store.journal.pendingImport() == nil)
        #expect(try store.journal.abandonPendingImport() == nil)
        #expect(try readView(of: store.journal) == before)
        #expect(try store.journal.main.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM main.tag") } == 3)
        #expect(try store.journal.verify().isConsistent)
        // The journal takes writes again, and numbers are never reused.
        #expect(try store.journal.add(NewEntry(text: "after")).id.number == 2_504)
        #expect(try store.journal.importFile(atPath: file.path).count == 3_000)
    }
}

/// What reads saw while an import ran, recorded from its thread.
private final class ReadLog<View>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(View, PendingImport?)] = []
    func record(_ view: View, _ pending: PendingImport?) { lock.withLock { recorded.append((view, pending)) } }
    var reads: [(View, PendingImport?)] { lock.withLock { recorded } }
}
