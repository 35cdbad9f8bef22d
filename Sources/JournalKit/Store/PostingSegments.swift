import Foundation
import GRDB

/// The link from tokens to entries: each token's entry numbers, ascending, cut into segments
/// of at most `capacity` numbers, each one row of the `posting` table holding a `DeltaList`.
///
/// A row's id packs the token id and the segment's first entry number
/// (`token << 32 | first`), so a token's segments are one rowid range, in order. Indexing a
/// batch of entries then rewrites one segment (or a few) per token the batch uses, instead of
/// inserting one row per token of every entry.
enum PostingSegments {
    /// Entry numbers per segment: small enough that rewriting the last one to append is cheap.
    static let capacity = 2_048
    /// Entry numbers must fit the low half of a segment's id.
    static let maximumEntryNumber: Int64 = 0xFFFF_FFFF

    static func key(token: Int64, entry: Int64) -> Int64 { token << 32 | entry }

    /// Adds and removes entry numbers (each sorted ascending) in the postings of `token`.
    /// Returns whether the token still has any.
    static func update(token: Int64, adding: [Int64], removing: [Int64], in db: Database) throws -> Bool {
        guard let low = [adding.first, removing.first].compactMap({ $0 }).min(),
              let high = [adding.last, removing.last].compactMap({ $0 }).max()
        else { return true }
        let tokenStart = key(token: token, entry: 0)
        // The segments that can hold numbers in low...high: from the one starting at or before
        // `low` (or the token's first) to the last starting at or before `high`.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT id, documents FROM posting
                WHERE id BETWEEN coalesce((SELECT max(id) FROM posting WHERE id BETWEEN ?1 AND ?2), ?1) AND ?3
                """),
            arguments: [tokenStart, key(token: token, entry: low), key(token: token, entry: high)])
        var current: [Int64] = []
        for row in rows { DeltaList.forEach(in: row[1] as Data) { current.append($0) } }
        let merged = merge(current, adding: adding, removing: removing)
        if let first = rows.first, let last = rows.last {
            try db.cachedStatement(sql: "DELETE FROM posting WHERE id BETWEEN ? AND ?")
                .execute(arguments: [first[0] as Int64, last[0] as Int64])
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO posting (id, count, documents) VALUES (?, ?, ?)")
        var start = 0
        while start < merged.count {
            let end = min(start + capacity, merged.count)
            let segment = merged[start..<end]
            try insert.execute(arguments: [key(token: token, entry: segment[start]), segment.count, DeltaList.encode(segment)])
            start = end
        }
        if !merged.isEmpty { return true }
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM posting WHERE id BETWEEN ? AND ?)"),
            arguments: [tokenStart, key(token: token, entry: maximumEntryNumber)]) ?? false
    }

    /// `current` with `adding` merged in and `removing` taken out, all sorted ascending.
    private static func merge(_ current: [Int64], adding: [Int64], removing: [Int64]) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(current.count + adding.count)
        var i = 0, j = 0, k = 0
        while i < current.count || j < adding.count {
            let next: Int64
            if j == adding.count || (i < current.count && current[i] < adding[j]) {
                next = current[i]; i += 1
            } else if i == current.count || adding[j] < current[i] {
                next = adding[j]; j += 1
            } else {
                next = current[i]; i += 1; j += 1
            }
            while k < removing.count, removing[k] < next { k += 1 }
            if k < removing.count, removing[k] == next { continue }
            result.append(next)
        }
        return result
    }

    /// Adds every entry of `token` to `set`.
    static func unite(token: Int64, into set: inout DocumentSet, in db: Database) throws {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT documents FROM posting WHERE id BETWEEN ? AND ?"),
            arguments: [key(token: token, entry: 0), key(token: token, entry: maximumEntryNumber)])
        while let row = try rows.next() {
            DeltaList.forEach(in: row[0] as Data) { set.insert($0) }
        }
    }

    /// How many entries each token has.
    static func documentCounts(in db: Database) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id >> 32, sum(count) FROM posting GROUP BY id >> 32")
        while let row = try rows.next() { counts[row[0]] = row[1] }
        return counts
    }
}
