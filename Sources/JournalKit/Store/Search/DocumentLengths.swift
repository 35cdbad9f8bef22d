import Foundation
import GRDB

/// Each document's number of words in blocks of ``perBlock`` consecutive entry numbers, so
/// that relevance reads the lengths of many matches in a few rows, rather than a row per match
/// or a scan of the document table (whose rows carry their token lists), either of which grows
/// with what the scoring does not need.
///
/// Invariant: block `k`'s `lengths` holds ``perBlock`` little-endian 32-bit counts, the `i`th
/// the number of words of document `k × perBlock + i` as `document.length` has it, 0 for a
/// number that is no document; a block without documents has no row.
enum DocumentLengths {
    /// The table, created by the search store's migration.
    static let schema = """
        -- block: entry number / 4096; lengths: the number of words of each of its 4,096 entry
        -- numbers in order, 0 for those that are no document, as little-endian 32-bit integers.
        CREATE TABLE document_length (block INTEGER PRIMARY KEY, lengths BLOB NOT NULL);
        """

    static let perBlock = 4_096

    /// The lengths a batch sets, by entry number (0 for a document it removes).
    struct Changes {
        private(set) var lengths: [Int64: UInt32] = [:]

        mutating func set(_ number: Int64, length: Int) {
            lengths[number] = UInt32(clamping: length)
        }
    }

    /// Rewrites the blocks `changes` touch.
    static func apply(_ changes: Changes, in db: Database) throws {
        let read = try db.cachedStatement(sql: "SELECT lengths FROM document_length WHERE block = ?")
        let write = try db.cachedStatement(
            sql: """
                INSERT INTO document_length (block, lengths) VALUES (?, ?)
                ON CONFLICT(block) DO UPDATE SET lengths = excluded.lengths
                """)
        let delete = try db.cachedStatement(sql: "DELETE FROM document_length WHERE block = ?")
        let byBlock = Dictionary(grouping: changes.lengths) { $0.key / Int64(perBlock) }
        for (block, lengths) in byBlock.sorted(by: { $0.key < $1.key }) {
            var values = [UInt32](repeating: 0, count: perBlock)
            if let data = try Data.fetchOne(read, arguments: [block]) { decode(data, into: &values) }
            for (number, length) in lengths { values[Int(number % Int64(perBlock))] = length }
            if values.allSatisfy({ $0 == 0 }) {
                try delete.execute(arguments: [block])
            } else {
                try write.execute(arguments: [block, encode(values)])
            }
        }
    }

    /// Writes the blocks of every document in the store: the migration that adds them.
    static func fill(in db: Database) throws {
        var changes = Changes()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, length FROM document")
        while let row = try rows.next() { changes.set(row[0], length: row[1]) }
        try apply(changes, in: db)
    }

    /// The lengths of `members` (ascending), the `i`th that of `members[i]` (0 for a number that
    /// is no document): only the blocks that hold a member read, and from each only the
    /// members' counts, so that a few matches spread over a large journal cost a few blocks. A
    /// store from before the blocks that could not be written since (a read-only file system)
    /// has them read from its documents' rows.
    static func lengths(of members: [Int64], in db: Database) throws -> [UInt32] {
        var lengths = [UInt32](repeating: 0, count: members.count)
        guard let first = members.first, let last = members.last else { return lengths }
        guard try exist(in: db) else {
            var index = 0
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, length FROM document WHERE id BETWEEN ? AND ? ORDER BY id"),
                arguments: [first, last])
            while let row = try rows.next() {
                let number: Int64 = row[0]
                while index < members.count, members[index] < number { index += 1 }
                guard index < members.count else { break }
                if members[index] == number { lengths[index] = row[1] }
            }
            return lengths
        }
        let perBlock = Int64(perBlock)
        let read = try db.cachedStatement(sql: "SELECT lengths FROM document_length WHERE block = ?")
        var index = 0
        while index < members.count {
            let block = members[index] / perBlock
            var end = index + 1
            while end < members.count, members[end] / perBlock == block { end += 1 }
            defer { index = end }
            // The block's blob read where SQLite holds it (``DirectColumns``): a few counts of it.
            let row = try Row.fetchCursor(read, arguments: [block])
            guard try row.next() != nil else { continue }
            read.withBlob(atColumn: 0) { bytes in
                for member in index..<end {
                    let offset = Int(members[member] - block * perBlock) * 4
                    guard offset + 4 <= bytes.count else { continue }
                    lengths[member] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                }
            }
        }
        return lengths
    }

    /// Whether the store has the blocks (one from before them that could not be written since
    /// has not).
    static func exist(in db: Database) throws -> Bool {
        try db.tableExists("document_length")
    }

    /// Every nonzero length the blocks hold, by entry number, for verification.
    static func forEachLength(in db: Database, _ body: (Int64, UInt32) -> Void) throws {
        var block = [UInt32](repeating: 0, count: perBlock)
        let rows = try Row.fetchCursor(db, sql: "SELECT block, lengths FROM document_length")
        while let row = try rows.next() {
            let start = (row[0] as Int64) * Int64(perBlock)
            decode(row[1], into: &block)
            for (index, length) in block.enumerated() where length > 0 { body(start + Int64(index), length) }
        }
    }

    private static func encode(_ values: [UInt32]) -> Data {
        var data = Data(capacity: values.count * 4)
        for value in values { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    /// Fills `values` from a block's bytes; a block cut short (damage) leaves the rest 0.
    private static func decode(_ data: Data, into values: inout [UInt32]) {
        let count = min(values.count, data.count / 4)
        data.withUnsafeBytes { bytes in
            for index in 0..<count {
                values[index] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            for index in count..<values.count { values[index] = 0 }
        }
    }
}
