import GRDB

/// What sync keeps of the entries (``SyncLedger``) against the entries, in a journal that has
/// synced: every entry either held as sync last sent or took it in, or pending. An entry that is
/// neither, or one changed or deleted without sync seeing it, is a change no sync would send.
/// And no version compaction removed is kept: one would take part in merges the journals that
/// removed it make without it.
enum SyncLedgerCheck {
    static func run(in db: Database, problems: inout ProblemLog) throws {
        guard try SyncLedger.isStarted(in: db) else { return }
        for n in try SyncLedger.unaccounted(in: db) {
            problems.add("sync", "p\(n) is neither sent nor pending for the next sync")
        }
        try SyncLedger.forEachHeld(in: db) { n, digest in
            let state = try SyncLedger.state(of: n, in: db)
            if state == nil {
                problems.add("sync", "p\(n) was deleted without the next sync knowing")
            } else if state?.digest != digest {
                problems.add("sync", "p\(n) differs from what sync holds of it, and is not pending for the next sync")
            }
        }
        for (uri, version) in try SyncLedger.misheld(in: db) {
            problems.add("sync", "version \(version) of \(uri) left its state to an entry that no longer holds it")
        }
        for (uri, version) in try SyncLedger.keptThoughRemoved(in: db) {
            problems.add("sync", "version \(version) of \(uri) is kept, though compaction removed it")
        }
    }
}
