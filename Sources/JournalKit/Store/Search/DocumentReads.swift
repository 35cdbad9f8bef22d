import GRDB

/// The search store's reads a word-prefix search makes in its read transaction, besides the
/// postings (``PostingSegments``), the days (``DateBuckets``) and a phrase's check
/// (``PhraseMatch``): the largest entry number, a token's or a prefix key's id, and the
/// documents newest first.
///
/// Invariant: every statement binds its values; none is left stepping once a read returns.
extension SearchStore {
    /// The largest entry number the store indexes (0 when it holds none): what a set of entry
    /// numbers is sized for.
    static func maximumDocument(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM document")) ?? 0
    }

    /// The id of the token `text`, nil when no entry holds it.
    static func tokenID(_ text: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM token WHERE text = ?"), arguments: [text])
    }

    /// The id of the prefix key `text` (one to three code points), nil when no token starts
    /// with it.
    static func prefixKeyID(_ text: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM prefix_key WHERE text = ?"), arguments: [text])
    }

    /// The first `wanted` documents, newest first, that `contains` accepts among those dated at
    /// or after `from` and before `until`: a walk down the date index, as long as it takes.
    static func newestDocuments(
        _ wanted: Int, dated: (from: Int64?, until: Int64?), where contains: (Int64) throws -> Bool, in db: Database
    ) throws -> [Int64] {
        var found: [Int64] = []
        let rows = try Int64.fetchCursor(
            db, sql: "SELECT id FROM document WHERE date >= ? AND date < ? ORDER BY date DESC, id DESC",
            arguments: [dated.from ?? Int64.min, dated.until ?? Int64.max])
        while found.count < wanted, let number = try rows.next() {
            if try contains(number) { found.append(number) }
        }
        return found
    }

    /// `numbers` newest first, each document's date read through its row (numbers that are
    /// no document left out).
    static func newestFirst(_ numbers: [Int64], in db: Database) throws -> [Int64] {
        var dated: [(date: Int64, number: Int64)] = []
        dated.reserveCapacity(numbers.count)
        let lookup = try db.cachedStatement(sql: "SELECT date FROM document WHERE id = ?")
        for number in numbers {
            if let date = try Int64.fetchOne(lookup, arguments: [number]) { dated.append((date, number)) }
        }
        dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.number > $1.number }
        return dated.map(\.number)
    }
}
