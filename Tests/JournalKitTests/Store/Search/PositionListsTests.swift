import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct PositionListsTests {
    @Test func listsReadBackAsWritten() {
        var generator = SplitMix64(seed: 5)
        var lists: [[UInt32]] = []
        for _ in 0..<500 {
            var position = UInt32(generator.next() % 40)
            var list = [position]
            for _ in 0..<Int(generator.next() % 6) {
                position += 1 + UInt32(generator.next() % (generator.next() % 2 == 0 ? 5 : 100_000))
                list.append(position)
            }
            lists.append(list)
        }
        var bytes: [UInt8] = []
        for list in lists { PositionLists.append(list, to: &bytes) }
        var read: [[UInt32]] = []
        var decoded: [UInt32] = []
        let whole = bytes.withUnsafeBufferPointer { buffer in
            PositionLists.forEachList(in: buffer) { list in
                #expect(PositionLists.decode(list, into: &decoded))
                read.append(decoded)
            }
        }
        #expect(whole)
        #expect(read == lists)
        // Cut anywhere inside, the lists say so rather than reading short.
        let cut = Array(bytes.dropLast())
        #expect(!cut.withUnsafeBufferPointer { PositionLists.forEachList(in: $0) { _ in } })
        #expect(bytes.withUnsafeBufferPointer { PositionLists.offset(after: lists.count, in: $0) } == bytes.count)
        #expect(bytes.withUnsafeBufferPointer { PositionLists.offset(after: lists.count + 1, in: $0) } == nil)
    }

    @Test func aListThatIsNotAscendingIsRefused() {
        var decoded: [UInt32] = []
        for bad: [UInt8] in [[], [3, 0], [0x80]] {
            #expect(!bad.withUnsafeBufferPointer { PositionLists.decode($0, into: &decoded) }, "\(bad)")
        }
    }

    /// A search store written before positions were kept is emptied when opened and indexed
    /// again, with progress, and answers as before.
    @Test func aStoreFromBeforePositionsIsIndexedAgain() throws {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: 300, seed: 3) { try store.journal.add(entry) }
        try store.journal.add(NewEntry(text: "the crème brûlée at the corner café, again"))
        let queries = ["\"the corner\"", "\"brûlée at the\"", "the -corner", "crè"]
        let before = try queries.map { try store.journal.search($0, page: PageRequest(limit: 0)).entries.map(\.id) }
        try store.journal.search.pool.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE posting DROP COLUMN positions;
                    ALTER TABLE document DROP COLUMN length;
                    ALTER TABLE document ADD COLUMN words BLOB NOT NULL DEFAULT x'';
                    DROP TABLE document_length;
                    DELETE FROM grdb_migrations WHERE identifier IN ('v7-posting-positions', 'v8-document-lengths');
                    """)
        }
        try store.journal.close()
        let phases = ProgressLog()
        let reopened = try Journal(directory: store.directory, progress: phases.handler)
        #expect(phases.indexed == 301)
        let after = try queries.map { try reopened.search($0, page: PageRequest(limit: 0)).entries.map(\.id) }
        #expect(after == before)
        #expect(before.allSatisfy { !$0.isEmpty })
        #expect(try reopened.verify().isConsistent)
    }
}

/// The largest number of entries an indexing phase reported done.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    var indexed: Int { lock.withLock { done } }
    var handler: ProgressHandler {
        { progress in
            guard progress.phase == .indexing else { return }
            self.lock.withLock { self.done = max(self.done, progress.done) }
        }
    }
}
