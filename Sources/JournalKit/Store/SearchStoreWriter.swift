import Foundation
import GRDB

/// Token ids a process has seen, valid across search-store transactions for as long as the
/// store's token generation stays the same (no token removed meanwhile).
struct TokenIDCache {
    private(set) var generation: Int64 = -1
    fileprivate var ids: [String: Int64] = [:]

    /// Forgets every id when tokens were removed since they were read.
    mutating func validate(in db: Database) throws {
        let current = try SearchStore.tokenGeneration(in: db)
        if current != generation {
            ids.removeAll(keepingCapacity: true)
            generation = current
        }
    }
}

/// Writes one batch of documents inside one search-store transaction: document rows at once,
/// posting changes gathered per token and applied at `finish`, one segment rewrite per token.
struct SearchStoreWriter {
    let db: Database
    let storeID: UUID
    private var adding: [Int64: [Int64]] = [:]
    private var removing: [Int64: [Int64]] = [:]

    init(db: Database, storeID: UUID) {
        self.db = db
        self.storeID = storeID
    }

    /// Indexes entry `number` with these tokens (distinct), replacing what the store had for it.
    mutating func upsert(number: Int64, date: JournalDate, tokens: [String], ids cache: inout TokenIDCache) throws {
        guard number > 0, number <= PostingSegments.maximumEntryNumber else {
            throw JournalError.store("entry number \(number) is beyond what the search store can index")
        }
        let previous = try Data.fetchOne(db.cachedStatement(sql: "SELECT tokens FROM document WHERE id = ?"), arguments: [number])
            .map(DeltaList.decode) ?? []
        var ids: [Int64] = []
        ids.reserveCapacity(tokens.count)
        for token in tokens { ids.append(try tokenID(for: token, cache: &cache)) }
        ids.sort()
        try db.cachedStatement(sql: """
            INSERT INTO document (id, uri, date, tokens) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET date = excluded.date, tokens = excluded.tokens
            """).execute(arguments: [number, EntryID(storeID: storeID, number: number).uri, date.microseconds, DeltaList.encode(ids)])
        if previous.isEmpty {
            for id in ids { adding[id, default: []].append(number) }
        } else {
            let old = Set(previous), new = Set(ids)
            for id in ids where !old.contains(id) { adding[id, default: []].append(number) }
            for id in previous where !new.contains(id) { removing[id, default: []].append(number) }
        }
    }

    /// Removes the documents numbered in `range`.
    mutating func removeDocuments(in range: ClosedRange<Int64>) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, tokens FROM document WHERE id BETWEEN ? AND ?", arguments: [range.lowerBound, range.upperBound])
        for row in rows {
            let number: Int64 = row[0]
            DeltaList.forEach(in: row[1] as Data) { removing[$0, default: []].append(number) }
        }
        try db.execute(sql: "DELETE FROM document WHERE id BETWEEN ? AND ?", arguments: [range.lowerBound, range.upperBound])
    }

    /// Rewrites the postings of every token the batch touched, in token order, and deletes the
    /// tokens no document uses any more.
    mutating func finish(ids cache: inout TokenIDCache) throws {
        var removedTokens = false
        for token in Set(adding.keys).union(removing.keys).sorted() {
            let stillUsed = try PostingSegments.update(
                token: token, adding: (adding[token] ?? []).sorted(), removing: (removing[token] ?? []).sorted(), in: db)
            if !stillUsed {
                try db.cachedStatement(sql: "DELETE FROM token WHERE id = ?").execute(arguments: [token])
                removedTokens = true
            }
        }
        adding.removeAll()
        removing.removeAll()
        if removedTokens {
            try SearchStore.bumpTokenGeneration(in: db)
            try cache.validate(in: db)
        }
    }

    private func tokenID(for token: String, cache: inout TokenIDCache) throws -> Int64 {
        if let id = cache.ids[token] { return id }
        let id: Int64
        if let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM token WHERE text = ?"), arguments: [token]) {
            id = existing
        } else {
            try db.cachedStatement(sql: "INSERT INTO token (text) VALUES (?)").execute(arguments: [token])
            id = db.lastInsertedRowID
        }
        cache.ids[token] = id
        return id
    }
}
