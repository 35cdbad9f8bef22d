import Foundation
import GRDB
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct DocumentLengthsTests {
    /// Lengths set, changed and cleared across blocks read back as a plain dictionary has them.
    @Test func lengthsReadBackAsSetAcrossBlocks() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: DocumentLengths.schema)
            var generator = SplitMix64(seed: 11)
            var expected: [Int64: UInt32] = [:]
            for _ in 0..<5 {
                var changes = DocumentLengths.Changes()
                for _ in 0..<300 {
                    let number = Int64(1 + generator.next() % 20_000)
                    let length = generator.next() % 4 == 0 ? 0 : Int(generator.next() % 100_000)
                    changes.set(number, length: length)
                    expected[number] = UInt32(length)
                }
                try DocumentLengths.apply(changes, in: db)
            }
            // Every number of a range across blocks, and a few far apart (some in no block).
            for members in [Array(Int64(3_000)...17_000), [2, 4_095, 4_096, 12_289, 19_999, 40_000]] {
                let lengths = try DocumentLengths.lengths(of: members, in: db)
                #expect(lengths == members.map { expected[$0] ?? 0 })
            }
            var found: [Int64: UInt32] = [:]
            try DocumentLengths.forEachLength(in: db) { found[$0] = $1 }
            #expect(found == expected.filter { $0.value > 0 })
            // Blocks left without a length are gone.
            var clearing = DocumentLengths.Changes()
            for number in expected.keys { clearing.set(number, length: 0) }
            try DocumentLengths.apply(clearing, in: db)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM document_length") == 0)
        }
    }

    /// Without the blocks (a store from before them that could not be written since), the
    /// lengths of a few numbers come from the documents' rows, 0 for a number that is none.
    @Test func lengthsWithoutBlocksComeFromTheDocuments() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE document (id INTEGER PRIMARY KEY, length INTEGER NOT NULL)")
            for number in stride(from: Int64(3), through: 9_000, by: 7) {
                try db.execute(
                    sql: "INSERT INTO document (id, length) VALUES (?, ?)", arguments: [number, number % 100 + 1])
            }
            let members: [Int64] = [3, 4, 10, 4_099, 4_100, 8_998, 9_001]
            let expected = members.map { $0 % 7 == 3 && $0 <= 9_000 ? UInt32($0 % 100 + 1) : 0 }
            #expect(expected.contains(0) && expected.contains { $0 > 0 })
            #expect(try DocumentLengths.lengths(of: members, in: db) == expected)
        }
    }

    /// A store from before the blocks gets them from its documents when opened, and ranks as
    /// it did.
    @Test func aStoreFromBeforeTheBlocksFillsThem() throws {
        let store = try TemporaryJournal()
        for entry in SyntheticJournal(count: 300, seed: 4) { try store.journal.add(entry) }
        let page = try PageRequest(limit: 30, order: .relevance)
        let before = try store.journal.search("the and", page: page)
        try store.journal.search.pool.write { db in
            try db.execute(
                sql: """
                    DROP TABLE document_length;
                    DELETE FROM grdb_migrations WHERE identifier = 'v8-document-lengths';
                    """)
        }
        try store.journal.close()
        let reopened = try Journal(directory: store.directory)
        let after = try reopened.search("the and", page: page)
        #expect(after.entries.map(\.id) == before.entries.map(\.id))
        #expect(after.scores == before.scores)
        #expect(before.total > 30)
        #expect(try reopened.verify().isConsistent)
    }
}
