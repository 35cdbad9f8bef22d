import GRDB

/// What opening a store reads of it: whose file it is, how far its schema has been migrated,
/// and its `store_info` values. Read in one read transaction through SQLite's C API, where GRDB's
/// schema queries and typed fetches instantiate generic types whose first use looks up
/// protocol conformances, which a one-shot search pays for in full.
///
/// Invariant: the facts are those of one committed state of the file; a caller that writes
/// (a migration) reads them again rather than trusting the ones it had.
struct StoreFacts {
    /// `PRAGMA application_id`: 0 for a file no journal has claimed.
    let applicationID: Int32
    /// How many schema objects it holds besides GRDB's record of migrations.
    let schemaObjects: Int
    /// The migrations GRDB records as applied; empty when it records none.
    let appliedMigrations: Set<String>
    /// The store's `store_info` values by key; empty while the table is missing.
    let info: [String: String]

    /// The facts of the store `db` reads.
    static func read(_ db: Database) throws -> StoreFacts {
        var applicationID: Int32 = 0
        try db.makeStatement(sql: "PRAGMA application_id").run(in: db, bind: { _ in }) {
            applicationID = Int32(truncatingIfNeeded: $0.int64(atColumn: 0))
        }
        var schemaObjects = 0
        var tables: Set<String> = []
        try db.makeStatement(sql: "SELECT tbl_name, type FROM sqlite_schema").run(in: db, bind: { _ in }) { row in
            let table = row.text(atColumn: 0)
            if table != "grdb_migrations" { schemaObjects += 1 }
            if row.text(atColumn: 1) == "table" { tables.insert(table) }
        }
        var applied: Set<String> = []
        if tables.contains("grdb_migrations") {
            try db.makeStatement(sql: "SELECT identifier FROM grdb_migrations").run(in: db, bind: { _ in }) {
                applied.insert($0.text(atColumn: 0))
            }
        }
        var info: [String: String] = [:]
        if tables.contains("store_info") {
            try db.makeStatement(sql: "SELECT key, value FROM store_info").run(in: db, bind: { _ in }) {
                info[$0.text(atColumn: 0)] = $0.text(atColumn: 1)
            }
        }
        return StoreFacts(
            applicationID: applicationID, schemaObjects: schemaObjects, appliedMigrations: applied, info: info)
    }
}
