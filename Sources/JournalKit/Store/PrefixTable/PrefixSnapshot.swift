import Foundation
import GRDB

/// The prefix table saved beside the search store (``PrefixTableFile``, `search.sqlite-prefix`)
/// and the search store's row naming it: the file's tag and the largest token id it holds.
/// Tokens added since are listed by id in `token_added`; tokens removed since stay in the file
/// harmlessly (no document has them).
///
/// Invariant: while the row exists, `token_added` holds exactly the tokens whose id is above the
/// row's largest (each token's id is above every id given before it, and saving the file empties
/// the list); without a row, the list is not read, and every token comes from the token table.
///
/// The indexer saves the table again when the tokens added since pass a tenth of it, or when the
/// file is not the one the row names (a crash between saving the file and committing the row, a
/// file removed or damaged).
enum PrefixSnapshot {
    /// The file beside the search store at `searchStore`.
    static func fileURL(besides searchStore: URL) -> URL {
        URL(fileURLWithPath: searchStore.path + "-prefix")
    }

    /// What the search store's row says of the file, or nil when no table was saved.
    static func record(in db: Database) throws -> (tag: UUID, maxTokenID: Int64, tokenCount: Int)? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT file_tag, max_token_id, token_count FROM prefix_snapshot WHERE id = 1")),
            let tag = UUID(uuidString: row[0])
        else { return nil }
        return (tag, row[1], row[2])
    }

    /// The saved file the search store names, mapped; nil when none was saved, or it is missing
    /// or damaged.
    static func mapped(in db: Database, searchStore: SearchStore) throws -> PrefixTableFile? {
        guard let record = try record(in: db) else { return nil }
        return PrefixTableFile(
            mapping: fileURL(besides: searchStore.url), expectedTag: record.tag, sealing: searchStore.prefixSealing)
    }

    /// Why the file the search store names can't be mapped (``PrefixTableFile/refusal(mapping:expectedTag:sealing:)``);
    /// nil when it can, or when no file is named.
    static func refusal(in db: Database, searchStore: SearchStore) throws -> PrefixTableFile.Refusal? {
        guard let record = try record(in: db) else { return nil }
        return PrefixTableFile.refusal(
            mapping: fileURL(besides: searchStore.url), expectedTag: record.tag, sealing: searchStore.prefixSealing)
    }

    /// The whole table in memory, as the search store has it now: the saved file's tokens, plus
    /// the tokens added since (every token when there is no usable file); `fromFile` says which.
    static func load(from db: Database, searchStore: SearchStore) throws -> (table: PrefixTable, fromFile: Bool) {
        var table = PrefixTable()
        let file = try mapped(in: db, searchStore: searchStore)
        file?.load(into: &table)
        // A sealed file found damaged half-way gives nothing: every token comes from the table.
        if file?.isDamaged == true { table = PrefixTable() }
        try appendNewTokens(from: db, to: &table)
        return (table, file != nil && file?.isDamaged == false)
    }

    /// Adds the tokens the search store gained after the table's last one: from the list of
    /// those the saved file lacks when the table holds the file's, else from a pass over the
    /// token table in its order, by text (no file, or a table loaded before the file was saved
    /// again), which the table takes as it comes.
    static func appendNewTokens(from db: Database, to table: inout PrefixTable) throws {
        let listed = try record(in: db).map { table.maxTokenID >= $0.maxTokenID } ?? false
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: listed
                    ? "SELECT id, CAST(text AS BLOB) FROM token_added WHERE id > ? ORDER BY id"
                    : "SELECT id, CAST(text AS BLOB) FROM token WHERE id > ?"),
            arguments: [table.maxTokenID])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let data: Data = row[1]
            table.insert(id: id, utf8: data)
        }
    }

    /// The texts of the tokens `ids` (those there are), by id, as a change that removes documents
    /// needs them: from the saved file, which holds every token up to its last, and the list of
    /// those added since; without a usable file, from a pass over the token table.
    static func tokenTexts(of ids: Set<Int64>, in db: Database, searchStore: SearchStore) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        guard let record = try record(in: db), let file = try mapped(in: db, searchStore: searchStore) else {
            return try SearchStore.tokenTexts(of: ids.sorted(), in: db)
        }
        var texts: [Int64: String] = [:]
        let inFile = ids.filter { $0 <= record.maxTokenID }
        if let largest = inFile.max() {
            // Marked in an array by id: the file's every token is tested.
            var wanted = [Bool](repeating: false, count: Int(largest) + 1)
            for id in inFile { wanted[Int(id)] = true }
            file.forEachToken { id, utf8 in
                if id >= 0, id <= largest, wanted[Int(id)] { texts[id] = String(decoding: utf8, as: UTF8.self) }
            }
            if file.isDamaged { return try SearchStore.tokenTexts(of: ids.sorted(), in: db) }
        }
        let listed = try db.cachedStatement(sql: "SELECT text FROM token_added WHERE id = ?")
        for id in ids where id > record.maxTokenID {
            texts[id] = try String.fetchOne(listed, arguments: [id])
        }
        return texts
    }

    /// The tokens listed as added since the file was saved (`token_added`), by id.
    static func tokensAdded(in db: Database) throws -> [(id: Int64, text: String)] {
        try Row.fetchAll(db, sql: "SELECT id, text FROM token_added").map { ($0[0], $0[1]) }
    }

    /// The largest token id the search store ever gave: a table whose largest is below it may
    /// lack a token.
    static func maxTokenID(in db: Database) throws -> Int64 {
        try SearchStoreWriter.largestID(of: .token, in: db)
    }

    /// Whether the table should be saved again: enough tokens came after it, or its file is not
    /// the one the row names.
    static func isStale(in db: Database, searchStore: SearchStore) throws -> Bool {
        let record = try record(in: db)
        if record != nil, try mapped(in: db, searchStore: searchStore) == nil { return true }
        let added =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: record == nil ? "SELECT count(*) FROM token" : "SELECT count(*) FROM token_added"))
            ?? 0
        return added > max(1_000, (record?.tokenCount ?? 0) / 10)
    }

    /// Saves the table from the token table as it is now, under a new tag, and names it in the
    /// search store's row (in `db`'s write transaction, committed after the file is in place).
    /// The tokens stream from the token table in its order, by text: memory holds the slots, not
    /// the vocabulary, and the row's largest id and count are those streamed. The list of tokens
    /// the file lacks is emptied.
    static func save(in db: Database, searchStore: SearchStore) throws {
        let tag = UUID()
        var (maxTokenID, tokenCount): (Int64, Int) = (0, 0)
        // Each token read where SQLite holds it: GRDB's rows gave each text as `Data`, a copy.
        let statement = try db.makeStatement(sql: "SELECT id, CAST(text AS BLOB) FROM token ORDER BY text")
        try PrefixTableFile.save(tag: tag, to: fileURL(besides: searchStore.url), sealing: searchStore.prefixSealing) {
            body in
            let rows = try Row.fetchCursor(statement)
            while try rows.next() != nil {
                let id = statement.int64(atColumn: 0)
                (maxTokenID, tokenCount) = (max(maxTokenID, id), tokenCount + 1)
                try statement.withBlob(atColumn: 1) { try body(id, $0) }
            }
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO prefix_snapshot (id, max_token_id, token_count, file_tag) VALUES (1, ?, ?, ?)",
            arguments: [maxTokenID, tokenCount, tag.uuidString])
        try db.execute(sql: "DELETE FROM token_added")
    }
}

extension PrefixTable {
    /// A table built from the whole token table of `searchStore`, ignoring its saved file.
    package static func built(fromTokensOf searchStore: SearchStore) throws(JournalError) -> PrefixTable {
        try searchStore.read { db in
            var table = PrefixTable()
            try PrefixSnapshot.appendNewTokens(from: db, to: &table)
            return table
        }
    }
}
