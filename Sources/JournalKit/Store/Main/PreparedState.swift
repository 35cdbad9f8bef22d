import Foundation
import JournalText

/// An entry's state as another device made it, with what taking it in writes made ahead: its
/// JSON as ``SyncLedger`` keeps it, its digest, and the entry it makes here. A sync makes these
/// on the thread that decodes a file's lines (``SyncLines``), so that its writer, the one thread
/// every record waits for, only writes them.
struct PreparedState: Sendable {
    let state: SyncedState
    let json: String
    let digest: Data
    let entry: PreparedEntry

    init(_ state: SyncedState) {
        self.state = state
        json = SyncLedger.json(of: state)
        digest = state.digest
        entry = PreparedEntry(synced: state)
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
