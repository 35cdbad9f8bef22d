import Foundation

/// A search store built from nothing in a temporary folder and removed after: what the
/// benchmark times to say what building the search store costs, without touching the journal's.
///
/// Invariant: the scratch store is encrypted as the journal's is (under a key of its own
/// identity), so that nothing of an encrypted journal lands in the temporary folder in plain
/// text; the folder is removed whether the build succeeds or not.
extension SearchStore {
    /// Indexes every entry of `main` into a new search store encrypted like `search`, then
    /// removes it.
    package static func buildScratchCopy(of main: MainStore, like search: SearchStore) throws(JournalError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-rebuild-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = StoreDirectory(folder)
        try directory.prepare(create: true)
        let scratch = try SearchStore(
            url: directory.searchStoreURL, mainStoreID: main.storeID, encryption: search.encryption,
            identity: .scratchSearchStore)
        try SearchIndexer(main: main, search: scratch).catchUp()
    }
}
