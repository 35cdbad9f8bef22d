import Crypto
import Foundation
import JournalText

/// What an entry is, given the versions of it a device knows: a pure function of that set, so
/// that every device that has seen the same versions holds the same entry, whatever order they
/// came in.
///
/// The heads are the versions no other known version was made from. With one head, the entry is
/// that version. With several (the entry was changed on two devices before they synced):
/// - an edit beats a delete: the deletes among the heads are passed over while an edit is one;
/// - edits that made the same state are one;
/// - the edits, latest version first (``SyncVersion``'s order), are merged into the latest when
///   they don't overlap (``ThreeWayMerge``, from the latest version both were made from);
/// - each edit that overlaps is kept as an entry of its own, a copy tagged `conflict`, whose
///   identity follows from the entry's and the version's, so every device makes the same copy
///   once; losing edits that made the same entry get one copy, the latest's.
enum SyncMerge {
    /// One head: its version and its state, nil for a delete.
    struct Head: Equatable, Sendable {
        let version: SyncVersion
        let state: SyncedState?
    }

    /// A copy kept of a head that lost.
    struct Copy: Equatable, Sendable {
        let entry: String
        let version: SyncVersion
        let state: SyncedState
    }

    /// The tag a copy of a conflicting edit is given.
    static let conflictTag = Tag(name: "conflict", written: "conflict")

    /// What the entry is.
    struct Resolution: Equatable, Sendable {
        /// The winning head, its state the merge of those in `merged` (nil when deleted).
        var winner: Head
        /// The other heads merged into the winner.
        var merged: [SyncVersion] = []
        /// The copies kept of the edits that overlap.
        var copies: [Copy] = []
    }

    /// The entry `entry` given its heads, and the state of the latest version two of them were
    /// both made from (`ancestor`, nil when it is not known).
    static func resolve(
        _ entry: String, heads: [Head], ancestor: (SyncVersion, SyncVersion) throws -> SyncedState?
    ) rethrows -> Resolution? {
        let edits = heads.filter { $0.state != nil }.sorted { $0.version > $1.version }
        guard let latest = edits.first else {
            return heads.max { $0.version < $1.version }.map { Resolution(winner: $0) }
        }
        var resolution = Resolution(winner: latest)
        for head in edits.dropFirst() {
            // The same state made twice (the same edit on two devices, or two copies of one
            // journal sending the entries they were copied with) is one: no words to keep apart.
            if head.state == resolution.winner.state {
                resolution.merged.append(head.version)
                continue
            }
            if let base = try ancestor(latest.version, head.version),
                let merged = ThreeWayMerge.merge(base: base, ours: resolution.winner.state!, theirs: head.state!)
            {
                resolution.winner = Head(version: latest.version, state: merged)
                resolution.merged.append(head.version)
                continue
            }
            var state = head.state!
            if !state.tags.contains(where: { $0.name == conflictTag.name }) {
                state = SyncedState(
                    date: state.date, text: state.text, tags: state.tags + [conflictTag], starred: state.starred)
            }
            // Two losing edits that made the same entry need one copy.
            guard !resolution.copies.contains(where: { $0.state == state }) else { continue }
            resolution.copies.append(
                Copy(entry: copyURI(of: entry, at: head.version), version: head.version, state: state))
        }
        return resolution
    }

    /// The URI of the copy of `entry`'s version `version`: the same on every device.
    static func copyURI(of entry: String, at version: SyncVersion) -> String {
        var bytes = Array(SHA256.hash(data: Data("\(entry) \(version)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // a name-based UUID's version field
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // and its variant
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return EntryID(storeID: uuid, number: 1).uri
    }
}
