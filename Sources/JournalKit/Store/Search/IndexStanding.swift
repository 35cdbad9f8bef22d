import GRDB

/// How the search store stands against the main store's change history: the one judgement of
/// whether it answers as it is, catches up, or is rebuilt from the entries.
///
/// Invariant: a search store is trusted only as the record of a prefix of the main store's
/// history: the change it applied last is in that history, with the tag it had when applied.
/// A power cut can leave it behind (its commits may be lost, ``Durability/mayLag``), which the
/// catch-up repairs; a copy of either file restored from a backup can leave it ahead, older
/// than the history reaches back, or built from another history that reached the same number,
/// and each of those is rebuilt, never answered from as if it agreed.
enum IndexStanding: Equatable {
    /// Every change is applied.
    case current
    /// Changes are left to apply (or a rebuild or a change is under way); the catch-up goes on.
    case behind
    /// It can't catch up: it is emptied and rebuilt from the entries, for this reason.
    case mustRebuild(String)

    /// The standing of a search store at `position`, against the main store read in `mainDB`.
    static func of(_ position: SearchStore.Position, in mainDB: Database) throws -> IndexStanding {
        if position.isFresh { return .mustRebuild("it is new") }
        let latest = try MainStore.lastChange(in: mainDB)
        if position.appliedChange > latest {
            return .mustRebuild(
                "it has applied changes the entries' history does not have (up to change \(position.appliedChange); "
                    + "the entries' history ends at \(latest)): one of the two files was restored from a copy")
        }
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
