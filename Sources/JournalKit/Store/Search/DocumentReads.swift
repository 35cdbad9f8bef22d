import Foundation
import GRDB

/// The search store's reads a word-prefix search makes in its read transaction, besides the
/// postings (``PostingSegments``), the days (``DateBuckets``) and a phrase's check
/// (``PhraseMatch``): the largest entry number, a token's or a prefix key's id, the tokens a
/// document or a few hold, a document's date, and the documents newest first.
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

    /// Whose postings answer a word of one to three code points: its prefix key's, or, for a key
    /// without a row of its own (``PostingOwner/prefixKey``), its one token's; nil when no token
    /// starts with it. One statement, so that a process's first short word compiles just one; its
    /// token is looked for only when the key has no row (the union stops at its first row).
    static func shortWordOwner(_ word: String, in db: Database) throws -> (owner: PostingOwner, id: Int64)? {
        guard let upper = PrefixRange.upperBound(of: word) else {
            return try prefixKeyID(word, in: db).map { (.prefixKey, $0) }
        }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT 1, id FROM prefix_key WHERE text = ?1
                    UNION ALL
                    SELECT 0, id FROM (SELECT id FROM token WHERE text >= ?1 AND text < ?2 ORDER BY text LIMIT 1)
                    LIMIT 1
                    """),
            arguments: [word, upper])
        guard let row else { return nil }
        return (row[0] as Bool ? .prefixKey : .token, row[1])
    }

    /// Up to how many documents a word of many tokens is narrowed through their rows
    /// (``tokens(_:heldByAnyOf:in:)``), a row read each, rather than through the postings of
    /// every token a short prefix starts, which may be thousands: this many, or as many as the
    /// word has tokens (a row read each way).
    static let fewDocuments = 256

    /// Those of `tokens` that the documents `numbers` hold, from the documents' own lists of
    /// tokens, when there are at most ``fewDocuments`` of them or no more than the tokens;
    /// otherwise `tokens` as they are. A word's tokens are then read only where the few
    /// documents that matter can have them. The rows are read by one statement, each list
    /// where SQLite holds it (``DirectColumns``), until every token is found.
    static func tokens(_ tokens: [Int64], heldByAnyOf numbers: DocumentSet, in db: Database) throws -> [Int64] {
        guard tokens.count > 1, numbers.count <= max(fewDocuments, tokens.count),
            let low = tokens.min(), let high = tokens.max()
        else { return tokens }
        let wanted = Set(tokens)
        var held = Set<Int64>()
        let statement = try db.cachedStatement(
            sql: "SELECT tokens FROM document WHERE id \(SQLParameters.inJSONArray)")
        let rows = try Row.fetchCursor(statement, arguments: [SQLParameters.jsonArray(numbers.members)])
        while held.count < wanted.count, try rows.next() != nil {
            statement.withBlob(atColumn: 0) { list in
                // A word's tokens are a few runs of ids: most of a document's fall outside.
                DeltaList.forEach(in: list) { token in
                    if token >= low, token <= high, wanted.contains(token) { held.insert(token) }
                }
            }
        }
        return tokens.filter(held.contains)
    }

    /// The first `wanted` documents numbered `maximum` or below, newest first, that `contains`
    /// accepts among those dated at or after `from` and before `until`: a walk down the days
    /// (``DateBuckets/forEachDay(from:until:maximum:in:_:)``), as long as it takes. The
    /// documents above `maximum` (those of an import still hidden, newer than the rest when it
    /// brings recent entries) are passed over in the days' runs, not handed one by one to
    /// `contains`.
    static func newestDocuments(
        _ wanted: Int, through maximum: Int64, dated: (from: Int64?, until: Int64?),
        where contains: (Int64) throws -> Bool, in db: Database
    ) throws -> [Int64] {
        var found: [Int64] = []
        guard wanted > 0 else { return found }
        try DateBuckets.forEachDay(from: dated.from, until: dated.until, maximum: maximum, in: db) { numbers in
            for number in numbers where try contains(number) {
                found.append(number)
                if found.count == wanted { return false }
            }
            return true
        }
        return found
    }

    /// The date of document `number` (microseconds since 1970 UTC), read from its row; nil when
    /// it is no document.
    static func date(of number: Int64, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT date FROM document WHERE id = ?"), arguments: [number])
    }

    /// `numbers` newest first, each document's date read through its row (numbers that are
    /// no document left out).
    static func newestFirst(_ numbers: [Int64], in db: Database) throws -> [Int64] {
        var dated: [(date: Int64, number: Int64)] = []
        dated.reserveCapacity(numbers.count)
        for number in numbers {
            if let date = try date(of: number, in: db) { dated.append((date, number)) }
        }
        dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.number > $1.number }
        return dated.map(\.number)
    }
}
