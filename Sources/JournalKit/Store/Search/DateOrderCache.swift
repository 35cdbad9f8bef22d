import Foundation
import GRDB

/// The ``DateOrder`` of one open journal's search store, once something that searches again
/// and again (a live search) has asked for it; until then searches read dates from the store.
/// Kept current: a search that finds the store moved on reads the order again.
package final class DateOrderCache: @unchecked Sendable {
    private let lock = NSLock()
    private var kept = false
    private var order: DateOrder?

    /// Reads the order now and keeps it from then on.
    func prepare(in db: Database) throws {
        try lock.withLock {
            kept = true
            _ = try current(in: db)
        }
    }

    /// The order as of the read transaction `db`, where the store stands at `position` (read in
    /// it already), or nil when it is not kept.
    func order(in db: Database, at position: SearchStore.Position) throws -> DateOrder? {
        try lock.withLock { kept ? try current(in: db, at: position) : nil }
    }

    private func current(in db: Database, at position: SearchStore.Position? = nil) throws -> DateOrder {
        if let order, try order.position == position ?? SearchStore.position(in: db) { return order }
        order = nil
        let fresh = try DateOrder(in: db)
        order = fresh
        return fresh
    }
}
