import Foundation
import GRDB

/// The search store's documents, tokens and prefix keys read whole, as a check of the store
/// against the entries reads them (``JournalVerifier``).
extension SearchStore {
    /// One document as stored: its entry number, URI (as `document_uri` makes it), date, token
    /// ids (a ``DeltaList``) and number of words.
    struct StoredDocument {
        let number: Int64
        let uri: String
        let date: Int64?
        let tokens: Data
        let length: Int
    }

    /// Every document, in entry-number order.
    static func documentsInNumberOrder(in db: Database) throws -> MapCursor<RowCursor, StoredDocument> {
        let sql = "SELECT id, uri, tokens, date, length FROM document JOIN document_uri USING (id) ORDER BY id"
        return try Row.fetchCursor(db, sql: sql).map { row in
            StoredDocument(
                number: row[0], uri: row[1] as String? ?? "", date: row[3], tokens: row[2] as Data? ?? Data(),
                length: row[4] as Int? ?? -1)
        }
    }

    /// Every document's entry number, date and token ids, in entry-number order: what the search
    /// store knows of an entry, for a report of those the main store lost (``LostEntries``).
    static func documentSummariesInNumberOrder(
        in db: Database
    ) throws -> MapCursor<RowCursor, (number: Int64, date: Int64?, tokens: Data)> {
        try Row.fetchCursor(db, sql: "SELECT id, date, tokens FROM document ORDER BY id").map { row in
            (row[0], row[1], row[2] as Data? ?? Data())
        }
    }

    /// The texts of the tokens `ids` (those there are), by id: one pass over the token table,
    /// which is kept by text and has no index by id, taking the rows whose id is in the set.
    static func tokenTexts(of ids: [Int64], in db: Database) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let statement = try db.cachedStatement(
            sql: "SELECT id, text FROM token WHERE id \(SQLParameters.inJSONArray)")
        var texts: [Int64: String] = [:]
        for row in try Row.fetchAll(statement, arguments: [SQLParameters.jsonArray(ids)]) { texts[row[0]] = row[1] }
        return texts
    }

    /// Every token's text, by id.
    static func tokenTexts(in db: Database) throws -> [Int64: String] {
        var texts: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, text FROM token") { texts[row[0]] = row[1] }
        return texts
    }

    /// Every prefix key's id, by its text.
    static func prefixKeyIDs(in db: Database) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, text FROM prefix_key") { ids[row[1]] = row[0] }
        return ids
    }
}
