import GRDB
import JournalText

/// Ids of tokens or prefix keys a process has seen, valid across search-store transactions for
/// as long as the store's token generation stays the same (none removed meanwhile), and used by
/// one writer that holds the catch-up lock throughout (no other process adds any meanwhile).
struct OwnerIDCache {
    let owner: PostingOwner
    private var generation: Int64 = -1
    private(set) var ids: [CodePointKey: Int64] = [:]
    /// Whether the cache holds every row of the table: it started on an empty table and has
    /// forgotten nothing since. A text it lacks is then new, and is added without a lookup.
    private(set) var holdsEveryRow = false
    /// Cleared for a catch-up's last batch, whose ids no later batch will look up: the ids of
    /// the rows it adds are then not kept (the cache no longer holds every row).
    var remembersAdded = true

    init(_ owner: PostingOwner) { self.owner = owner }

    /// Forgets every id once there are more than `maximum`: the cache grows with the vocabulary,
    /// and a miss costs one indexed read, so memory stays bounded whatever the journal's size.
    mutating func limit(to maximum: Int) {
        if ids.count > maximum {
            ids.removeAll()
            holdsEveryRow = false
        }
    }

    /// Takes `id` as the id of `key`, a row read from the store.
    mutating func found(_ key: CodePointKey, id: Int64) { ids[key] = id }

    /// Makes room for `count` rows about to be added, if their ids are to be kept.
    mutating func reserve(_ count: Int) {
        if remembersAdded { ids.reserveCapacity(ids.count + count) }
    }

    /// Takes `id` as the id of `key`, a row just added.
    mutating func added(_ key: CodePointKey, id: Int64) {
        if remembersAdded { ids[key] = id } else { holdsEveryRow = false }
    }

    /// Forgets every id when tokens or keys were removed since they were read; an empty cache
    /// holds every row when the table has none.
    mutating func validate(in db: Database) throws {
        let current = try SearchStore.tokenGeneration(in: db)
        if current != generation {
            ids.removeAll(keepingCapacity: true)
            holdsEveryRow = false
            generation = current
        }
        if ids.isEmpty {
            holdsEveryRow = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(owner.table))") ?? false
        }
    }
}
