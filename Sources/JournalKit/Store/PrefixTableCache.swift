import Foundation
import GRDB

/// The prefix table of one open journal, loaded on first use (from the snapshot) and brought
/// up to date with the tokens added since whenever it is used again.
package final class PrefixTableCache: @unchecked Sendable {
    private let lock = NSLock()
    private var table: PrefixTable?
    /// How long the last full load took, and whether it came from the snapshot.
    private(set) var lastLoad: (seconds: Double, fromSnapshot: Bool)?

    /// The table as of the search store's current tokens.
    func current(from search: SearchStore) throws(JournalError) -> PrefixTable {
        try StoreDatabase.guarded(search.url) {
            try search.pool.read { db in
                lock.lock()
                defer { lock.unlock() }
                if var table {
                    if try PrefixSnapshot.maxTokenID(in: db) > table.maxTokenID {
                        self.table = nil
                        try PrefixSnapshot.appendNewTokens(from: db, to: &table)
                        self.table = table
                    }
                    return table
                }
                let started = DispatchTime.now()
                let hasSnapshot = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM prefix_snapshot)") ?? false
                let loaded = try PrefixSnapshot.load(from: db)
                lastLoad = (Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9, hasSnapshot)
                table = loaded
                return loaded
            }
        }
    }

    /// Forgets the table, so that the next use loads it again (to measure loading).
    func reset() {
        lock.withLock { table = nil }
    }
}
