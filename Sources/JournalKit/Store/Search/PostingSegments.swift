import Foundation
import GRDB

/// The link from tokens (or prefix keys) to entries: each owner's entry numbers, ascending,
/// cut into segments of at most `capacity` numbers, each one row of a posting table holding a
/// `DeltaList`.
///
/// A row's id packs the owner's id and the segment's first entry number
/// (`owner << 32 | first`), so an owner's segments are one rowid range, in order. Indexing a
/// batch of entries then rewrites one segment (or a few) per token the batch uses, instead of
/// inserting one row per token of every entry.
struct PostingSegments: Sendable, Equatable {
    /// The table: `posting` (tokens) or `prefix_posting` (prefix keys).
    let table: String

    /// Each token's entries.
    static let tokens = PostingSegments(table: "posting")
    /// Each prefix key's entries: those with a token starting with the key.
    static let prefixKeys = PostingSegments(table: "prefix_posting")

    /// Entry numbers per segment: small enough that rewriting the last one to append is cheap.
    static let capacity = 2_048
    /// Entry numbers must fit the low half of a segment's id.
    static let maximumEntryNumber: Int64 = 0xFFFF_FFFF

    static func key(owner: Int64, entry: Int64) -> Int64 { owner << 32 | entry }

    /// A token's last segment as this process last wrote or read it, so that appending entries
    /// numbered after it is one in-place rewrite, with nothing read. Valid while no other
    /// process writes the store (the indexer drops them when the store moved under it).
    struct Tail {
        var id: Int64
        var count: Int
        var last: Int64
        var bytes: [UInt8]
    }

    typealias Tails = [Int64: Tail]

    /// Adds and removes entry numbers (each sorted ascending) in the postings of `token`,
    /// keeping `tails` current. Returns whether the token still has any.
    func update(
        owner token: Int64, adding: [Int64], removing: [Int64], tails: inout Tails, in db: Database
    ) throws -> Bool {
        if removing.isEmpty, let first = adding.first, var tail = tails[token], first > tail.last {
            try append(adding, token: token, to: &tail, in: db)
            tails[token] = tail
            return true
        }
        tails[token] = nil
        guard try update(owner: token, adding: adding, removing: removing, in: db) else { return false }
        tails[token] = try lastSegment(of: token, in: db)
        return true
    }

    private func append(_ numbers: [Int64], token: Int64, to tail: inout Tail, in db: Database) throws {
        var rest = numbers[...]
        let room = Self.capacity - tail.count
        if room > 0 {
            let taken = rest.prefix(room)
            DeltaList.append(taken, after: tail.last, to: &tail.bytes)
            tail.count += taken.count
            tail.last = taken.last ?? tail.last
            try db.cachedStatement(sql: "UPDATE \(table) SET count = ?, documents = ? WHERE id = ?")
                .execute(arguments: [tail.count, Data(tail.bytes), tail.id])
            rest = rest.dropFirst(taken.count)
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO \(table) (id, count, documents) VALUES (?, ?, ?)")
        while let first = rest.first {
            let segment = rest.prefix(Self.capacity)
            var bytes: [UInt8] = []
            DeltaList.append(segment, after: 0, to: &bytes)
            tail = Tail(
                id: Self.key(owner: token, entry: first), count: segment.count, last: segment.last ?? first,
                bytes: bytes)
            try insert.execute(arguments: [tail.id, tail.count, Data(bytes)])
            rest = rest.dropFirst(segment.count)
        }
    }

    private func lastSegment(of token: Int64, in db: Database) throws -> Tail? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id, count, documents FROM \(table) WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1"),
                arguments: [Self.key(owner: token, entry: 0), Self.key(owner: token, entry: Self.maximumEntryNumber)])
        else { return nil }
        let data: Data = row[2]
        var last: Int64 = 0
        DeltaList.forEach(in: data) { last = $0 }
        return Tail(id: row[0], count: row[1], last: last, bytes: [UInt8](data))
    }

    /// Adds and removes entry numbers (each sorted ascending) in the postings of `token`.
    /// Returns whether the token still has any.
    func update(owner token: Int64, adding: [Int64], removing: [Int64], in db: Database) throws -> Bool {
        guard let low = [adding.first, removing.first].compactMap({ $0 }).min(),
            let high = [adding.last, removing.last].compactMap({ $0 }).max()
        else { return true }
        let tokenStart = Self.key(owner: token, entry: 0)
        let rows = try Row.fetchAll(segments(holding: low...high, owner: token, columns: "id, documents", in: db))
        var current: [Int64] = []
        for row in rows { DeltaList.forEach(in: row[1] as Data) { current.append($0) } }
        let merged = merge(current, adding: adding, removing: removing)
        if let first = rows.first, let last = rows.last {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id BETWEEN ? AND ?")
                .execute(arguments: [first[0] as Int64, last[0] as Int64])
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO \(table) (id, count, documents) VALUES (?, ?, ?)")
        var start = 0
        while start < merged.count {
            let end = min(start + Self.capacity, merged.count)
            let segment = merged[start..<end]
            try insert.execute(arguments: [
                Self.key(owner: token, entry: segment[start]), segment.count, DeltaList.encode(segment),
            ])
            start = end
        }
        if !merged.isEmpty { return true }
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id BETWEEN ? AND ?)"),
            arguments: [tokenStart, Self.key(owner: token, entry: Self.maximumEntryNumber)]) ?? false
    }

    /// `current` with `adding` merged in and `removing` taken out, all sorted ascending.
    private func merge(_ current: [Int64], adding: [Int64], removing: [Int64]) -> [Int64] {
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

    /// Adds every entry of `token` (or prefix key) to `set`; with `window`, only those numbered
    /// in it, reading only the segments that can hold them.
    func unite(
        owner token: Int64, into set: inout DocumentSet, within window: ClosedRange<Int64>? = nil, in db: Database
    ) throws {
        guard let window else {
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT documents FROM \(table) WHERE id BETWEEN ? AND ?"),
                arguments: [Self.key(owner: token, entry: 0), Self.key(owner: token, entry: Self.maximumEntryNumber)])
            while let row = try rows.next() {
                DeltaList.forEach(in: row[0] as Data) { set.insert($0) }
            }
            return
        }
        let rows = try Row.fetchCursor(segments(holding: window, owner: token, columns: "documents", in: db))
        while let row = try rows.next() {
            DeltaList.forEach(in: row[0] as Data) { number in
                if window.contains(number) { set.insert(number) }
            }
        }
    }

    /// The first number and the count of each segment of `owner`, ascending; with `window`, of
    /// those that can hold numbers in it. For prefix keys an index holds these apart from the
    /// numbers, so a long list is counted without reading it.
    func segmentCounts(
        owner: Int64, within window: ClosedRange<Int64>? = nil, in db: Database
    ) throws -> [(
        first: Int64, count: Int
    )] {
        let rows = try Row.fetchCursor(
            segments(holding: window ?? 0...Self.maximumEntryNumber, owner: owner, columns: "id, count", in: db))
        var segments: [(first: Int64, count: Int)] = []
        while let row = try rows.next() {
            segments.append((first: (row[0] as Int64) & Self.maximumEntryNumber, count: row[1]))
        }
        return segments
    }

    /// The statement reading `columns` of the segments of `owner` that can hold numbers in
    /// `range`: from the one starting at or before its start (or the owner's first) to the
    /// last starting in it.
    private func segments(
        holding range: ClosedRange<Int64>, owner: Int64, columns: String, in db: Database
    ) throws -> Statement {
        let low = max(0, min(range.lowerBound, Self.maximumEntryNumber))
        let high = max(0, min(range.upperBound, Self.maximumEntryNumber))
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(columns) FROM \(table)
                WHERE id BETWEEN coalesce((SELECT max(id) FROM \(table) WHERE id BETWEEN ?1 AND ?2), ?1) AND ?3
                """)
        statement.arguments = [
            Self.key(owner: owner, entry: 0), Self.key(owner: owner, entry: low), Self.key(owner: owner, entry: high),
        ]
        return statement
    }

    /// How many entries each token (or prefix key) has.
    func documentCounts(in db: Database) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id >> 32, sum(count) FROM \(table) GROUP BY id >> 32")
        while let row = try rows.next() { counts[row[0]] = row[1] }
        return counts
    }

    /// Hands `body` every (owner, entry) link of the table, segment by segment.
    func forEachLink(in db: Database, _ body: (_ owner: Int64, _ entry: Int64) -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT id >> 32, documents FROM \(table)")
        while let row = try rows.next() {
            let owner: Int64 = row[0]
            DeltaList.forEach(in: row[1] as Data? ?? Data()) { body(owner, $0) }
        }
    }
}
