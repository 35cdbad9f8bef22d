import Foundation
import GRDB

/// The prefix table kept in the search store, so that a short-lived process reads one blob
/// instead of the whole token table: token ids (delta-encoded) and texts, in id order, up to
/// `max_token_id`. Tokens added since are read from the token table on loading; tokens removed
/// since stay in the table harmlessly (no document has them). The indexer rewrites the
/// snapshot when the tokens added since pass a tenth of it.
enum PrefixSnapshot {
    /// The table as the search store has it now: the snapshot, plus the tokens added since.
    static func load(from db: Database) throws -> PrefixTable {
        var table = PrefixTable()
        if let row = try Row.fetchOne(db, sql: "SELECT data FROM prefix_snapshot WHERE id = 1") {
            decode(row[0] as Data, into: &table)
        }
        try appendNewTokens(from: db, to: &table)
        return table
    }

    /// Adds the tokens the search store gained after the table's last one.
    static func appendNewTokens(from db: Database, to table: inout PrefixTable) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, CAST(text AS BLOB) FROM token WHERE id > ? ORDER BY id", arguments: [table.maxTokenID])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let data: Data = row[1]
            table.insert(id: id, utf8: data)
        }
    }

    /// The largest token id now in the search store.
    static func maxTokenID(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(id) FROM token") ?? 0
    }

    /// Whether enough tokens came after the snapshot to write it again.
    static func isStale(in db: Database) throws -> Bool {
        let snapshot = try Row.fetchOne(db, sql: "SELECT max_token_id, token_count FROM prefix_snapshot WHERE id = 1")
        let maxID: Int64 = snapshot?[0] ?? 0
        let count: Int = snapshot?[1] ?? 0
        let added = try Int.fetchOne(db, sql: "SELECT count(*) FROM token WHERE id > ?", arguments: [maxID]) ?? 0
        return added > max(1_000, count / 10)
    }

    /// Writes the snapshot from the token table as it is now.
    static func write(in db: Database) throws {
        var table = PrefixTable()
        try appendNewTokens(from: db, to: &table)
        try db.execute(
            sql: "INSERT OR REPLACE INTO prefix_snapshot (id, max_token_id, token_count, data) VALUES (1, ?, ?, ?)",
            arguments: [table.maxTokenID, table.tokenCount, encode(table)])
    }

    static func encode(_ table: PrefixTable) -> Data {
        var data: [UInt8] = []
        var previous: Int64 = 0
        table.forEachToken { id, utf8 in
            Varint.append(UInt64(id - previous), to: &data)
            previous = id
            Varint.append(UInt64(utf8.count), to: &data)
            data.append(contentsOf: utf8)
        }
        return Data(data)
    }

    static func decode(_ data: Data, into table: inout PrefixTable) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            var id: Int64 = 0
            while position < bytes.count {
                guard let delta = Varint.read(bytes, at: &position), let length = Varint.read(bytes, at: &position),
                    position + Int(length) <= bytes.count
                else { return }
                id += Int64(delta)
                table.insert(id: id, utf8: UnsafeBufferPointer(rebasing: bytes[position..<position + Int(length)]))
                position += Int(length)
            }
        }
    }
}
