import GRDB

/// How the search store stands against the main store's change history: the one judgement of
/// whether it answers as it is, catches up, or is rebuilt from the entries.
///
/// Invariant: a search store is trusted only as the record of a prefix of the main store's
/// history: the change it applied last is in that history, with the tag it had when applied.
/// A power cut can leave it behind (its commits may be lost, ``Durability/mayLag``), which the
/// catch-up repairs; a copy of the search store restored from a backup can leave it older than
/// the history reaches back, or built from another history that reached the same number, and
/// each of those is rebuilt, never answered from as if it agreed.
///
/// A search store *ahead* of the history is another matter: the main store, synced at every
/// commit, lacks changes that were written, reported done and indexed. Its file lost them
/// (damaged, or restored from an older copy): the entries are what the user wrote, and their
/// loss is reported, not absorbed. Nothing is rebuilt, and the search store keeps what it knows
/// of them, until the user restores the main store or accepts the loss (`journal reindex`).
enum IndexStanding: Equatable {
    /// Every change is applied.
    case current
    /// Changes are left to apply (or a rebuild or a change is under way); the catch-up goes on.
    case behind
    /// It can't catch up: it is emptied and rebuilt from the entries, for this reason.
    case mustRebuild(String)
    /// The main store's history ends at `latest`, before the change `applied` the search store
    /// applied: the main store lost changes `latest + 1 ... applied`.
    case entriesLost(applied: Int64, latest: Int64)

    /// The standing of a search store at `position`, against the main store read in `mainDB`.
    static func of(_ position: SearchStore.Position, in mainDB: Database) throws -> IndexStanding {
        if position.isFresh { return .mustRebuild("it is new") }
        let latest = try MainStore.lastChange(in: mainDB)
        if position.appliedChange > latest { return .entriesLost(applied: position.appliedChange, latest: latest) }
        if position.appliedChange < (try MainStore.prunedThrough(in: mainDB)) {
            return .mustRebuild(
                "it is older than the entries' change history reaches back: it was restored from an old copy")
        }
        if let tag = position.appliedTag, try MainStore.tag(ofChange: position.appliedChange, in: mainDB) != tag {
            return .mustRebuild(
                "it was built from another history of the entries: one of the two files was restored from a copy")
        }
        let done = position.rebuildFrom == nil && position.resumeAfterEntry == 0 && position.appliedChange == latest
        return done ? .current : .behind
    }
}
