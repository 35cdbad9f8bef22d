import Foundation
import GRDB

/// The bytes a store's file gives each of its tables and indexes, as SQLite's `dbstat` counts
/// its pages: where a store's size goes. Reading it reads every page of the file.
public struct StoreTableSize: Sendable, Equatable, Codable {
    /// The table or index (an index SQLite makes for a `UNIQUE` column is `sqlite_autoindex_…`).
    public let name: String
    /// Its pages' bytes.
    public let bytes: Int

    /// Every table and index of the store read in `db`, largest first (ties by name); nil when
    /// this SQLite has no `dbstat`. `only` keeps those whose names it accepts.
    ///
    /// Counted as pages times the page size: an aggregate row's `pageno` is its table's number
    /// of pages, while its `pgsize`, their bytes, wraps at 4 GiB (SQLite 3.40 sums it in 32
    /// bits), which a large journal's postings pass.
    package static func all(in db: Database, only: (String) -> Bool = { _ in true }) -> [StoreTableSize]? {
        guard
            let rows = try? Row.fetchAll(
                db,
                sql: """
                    SELECT name, sum(pageno) * (SELECT page_size FROM pragma_page_size())
                    FROM dbstat WHERE aggregate = TRUE GROUP BY name
                    """)
        else { return nil }
        return rows.map { StoreTableSize(name: $0[0], bytes: $0[1]) }.filter { only($0.name) }
            .sorted { ($0.bytes, $1.name) > ($1.bytes, $0.name) }
    }
}
