import Foundation
import GRDB

/// The states the ledger leaves to the entries that hold them: an entry a journal takes in
/// from another device as its first version is written twice otherwise, once as the entry and
/// once as that version's state (``SyncLedger``'s `sync_version.state`), which a new device
/// taking in a whole journal would pay for on every entry.
///
/// Such a version's state is kept as ``heldByEntry`` while the entry holds it. Triggers write
/// it out before anything changes what the entry holds, by any path: its date, text or star,
/// its given tags, or its deletion.
///
/// Invariant: a version whose state is ``heldByEntry`` is the head `sync_entry` holds, unmerged,
/// in entry `n`, whose date, text, star and given tags are that state, and which is not pending
/// (in `sync_pending`) outside the transaction that wrote it. An entry is pending only once it
/// changed (the triggers below ran first), in the transaction of a sync that makes versions, or
/// when its head is a merge; so the tag triggers pass over a pending entry, whose state was
/// written out before. A take-in marks nothing pending and goes without the tag triggers
/// (``takingIn(in:_:)``): the states it leaves to the entries it writes are the ones it writes,
/// tags and all, and the entry's triggers write out the state of one it changes or deletes,
/// before anything of it changes.
extension SyncLedger {
    /// What `sync_version.state` holds for a version whose state is its entry's.
    static let heldByEntry = ""

    /// Makes the triggers, in a ledger started before states were left to entries (`start` makes
    /// them too).
    static func startHeldStates(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TRIGGER IF NOT EXISTS sync_state_updated BEFORE UPDATE OF date, text, starred ON entry BEGIN
                    \(writeOut("old.n"))
                END;
                CREATE TRIGGER IF NOT EXISTS sync_state_deleted BEFORE DELETE ON entry BEGIN
                    \(writeOut("old.n"))
                END;
                \(tagTriggers)
                """)
    }

    /// The triggers that write a state out before an entry's given tags change.
    static let tagTriggers = """
        CREATE TRIGGER IF NOT EXISTS sync_state_tag_given BEFORE INSERT ON tag
        WHEN new.given = 1 AND \(notPending("new.entry")) BEGIN
            \(writeOut("new.entry"))
        END;
        CREATE TRIGGER IF NOT EXISTS sync_state_tag_taken BEFORE DELETE ON tag
        WHEN old.given = 1 AND \(notPending("old.entry")) BEGIN
            \(writeOut("old.entry"))
        END;
        CREATE TRIGGER IF NOT EXISTS sync_state_tag_changed BEFORE UPDATE ON tag
        WHEN (old.given = 1 OR new.given = 1) AND \(notPending("old.entry")) BEGIN
            \(writeOut("old.entry"))
        END;
        """
    static let tagTriggerNames = ["sync_state_tag_given", "sync_state_tag_taken", "sync_state_tag_changed"]

    private static func notPending(_ n: String) -> String {
        "NOT EXISTS (SELECT 1 FROM sync_pending WHERE n = \(n))"
    }

    /// The statement that writes out the state left to entry `n` (an SQL expression): as JSON
    /// that decodes as ``SyncedState`` does (its tags in any order: ``state(_:of:in:)`` puts
    /// them in order).
    private static func writeOut(_ n: String) -> String {
        """
        UPDATE sync_version SET state = (
            SELECT json_object(
                'date', e.date, 'text', e.text, 'starred', json(CASE WHEN e.starred THEN 'true' ELSE 'false' END),
                'tags', (
                    SELECT json_group_array(json_object('name', t.name, 'written', t.written))
                    FROM tag t WHERE t.entry = e.n AND t.given = 1
                ))
            FROM entry e WHERE e.n = \(n)
        )
        WHERE state = '\(heldByEntry)' AND store = (SELECT store FROM sync_entry WHERE n = \(n))
            AND number = (SELECT number FROM sync_entry WHERE n = \(n));
        """
    }

    /// The state `json` of a version of `uri` says, read from the entry when left to it; nil for
    /// a delete.
    static func state(_ json: String?, of uri: String, in db: Database) throws -> SyncedState? {
        guard let json else { return nil }
        guard json == heldByEntry else {
            return (try? JSONDecoder().decode(SyncedState.self, from: Data(json.utf8))).map {
                SyncedState(date: $0.date, text: $0.text, tags: $0.tags, starred: $0.starred)
            }
        }
        guard let n = try held(uri: uri, in: db)?.n else { return nil }
        return try state(of: n, in: db)
    }

    /// The versions whose state is left to an entry that does not hold them as the invariant
    /// says: their state is lost.
    static func misheld(in db: Database) throws -> [(uri: String, version: String)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT v.store, v.number, v.version FROM sync_version v
                LEFT JOIN sync_entry e ON e.store = v.store AND e.number = v.number
                WHERE v.state = '\(heldByEntry)' AND (
                    e.n IS NULL OR e.head IS NOT v.version OR e.merged IS NOT NULL
                    OR e.n IN (SELECT n FROM sync_pending) OR e.n NOT IN (SELECT n FROM entry)
                )
                """
        ).map { (try key($0, at: 0).uri, $0[2]) }
    }
}
