import Foundation
import JournalText

/// An entry's state as another device made it, with what taking it in writes made ahead: its
/// JSON as ``SyncLedger`` keeps it, its digest, and the entry it makes here. A sync makes these
/// on the thread that decodes a file's lines (``SyncLines``), so that its writer, the one thread
/// every record waits for, only writes them.
struct PreparedState: Sendable {
    let state: SyncedState
    /// Nil when the state is likely left to the entry (a first version's, which the entry holds
    /// whole): the ledger encodes it when it is not.
    let json: String?
    let digest: Data
    let entry: PreparedEntry
    /// Whether the entry written from it holds it exactly (its given tags each once, in order),
    /// so that the ledger may leave the state to the entry (``SyncLedger/heldByEntry``).
    let entryHoldsIt: Bool

    /// The state of a version made from `parents`.
    init(_ state: SyncedState, madeFrom parents: [String]) {
        self.state = state
        digest = state.digest
        entry = PreparedEntry(synced: state)
        entryHoldsIt = zip(state.tags, state.tags.dropFirst()).allSatisfy { $0.name < $1.name }
        json = entryHoldsIt && parents.isEmpty ? nil : SyncLedger.json(of: state)
    }
}

extension PreparedEntry {
    /// The entry `state` makes: its canonical text and text tags with it.
    init(synced state: SyncedState) {
        self.init(
            date: JournalDate(microseconds: state.date), text: state.text, canonical: Fold.canonical(state.text),
            textTags: Tags.inText(state.text), givenTags: state.tags, starred: state.starred, origin: nil)
    }
}
