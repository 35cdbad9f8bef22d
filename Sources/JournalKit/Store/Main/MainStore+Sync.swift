import GRDB
import JournalText

/// The main store's writes for sync: an entry's state as another device made it, written as
/// any write is (its canonical text and text tags with it, a change recorded for the stores
/// derived from it), inside the transaction that also updates the ``SyncLedger``.
extension MainStore {
    /// Runs `body` in one write transaction (refused while an import is pending).
    func syncTransaction<T>(_ body: (Database) throws -> T) throws(JournalError) -> T {
        try guarded { try writeUnlessImportPending(body) }
    }

    /// Writes `state` into entry `n`, or into a new entry when `n` is nil or no entry; returns
    /// the entry's number.
    func write(_ state: SyncedState, into n: Int64?, _ hooks: WriteHooks, in db: Database) throws -> Int64 {
        let prepared = PreparedEntry(
            date: JournalDate(microseconds: state.date), text: state.text, canonical: Fold.canonical(state.text),
            textTags: Tags.inText(state.text), givenTags: state.tags, starred: state.starred, origin: nil)
        if let n, try SyncLedger.state(of: n, in: db) != nil {
            try db.execute(
                sql:
                    "UPDATE entry SET date = ?, text = CAST(? AS TEXT), canonical = CAST(? AS TEXT), starred = ? WHERE n = ?",
                arguments: [
                    prepared.date.microseconds, ExactText(prepared.text), ExactText(prepared.canonical), state.starred,
                    n,
                ])
            try EntryTags.replaceTextTags(prepared.textTags, for: n, in: db)
            try db.execute(sql: "DELETE FROM tag WHERE entry = ? AND given = 1", arguments: [n])
            try EntryTags.insert(state.tags, given: true, for: n, in: db)
            try record(.update, n...n, hooks, in: db)
            return n
        }
        var inserter = try EntryInserter(db)
        guard let number = try inserter.insertUnlessPresent(prepared, before: nil) else {
            throw JournalError.store("an entry received by sync was taken for one the journal holds")
        }
        try inserter.finish()
        try record(.insert, number...number, hooks, in: db)
        return number
    }

    /// Deletes entry `n`, if there is one.
    func deleteEntry(_ n: Int64, _ hooks: WriteHooks, in db: Database) throws {
        try db.execute(sql: "DELETE FROM entry WHERE n = ?", arguments: [n])
        if db.changesCount > 0 { try record(.delete, n...n, hooks, in: db) }
    }
}
