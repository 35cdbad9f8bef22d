import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A search store built from nothing in a temporary folder and removed after: what the
/// benchmark times to say what building the search store costs, without touching the journal's.
///
/// Invariant: the scratch store is encrypted as the journal's is (under a key of its own
/// identity), so that nothing of an encrypted journal lands in the temporary folder in plain
/// text; the folder is removed whether the build succeeds or not, and one left by a process
/// that was killed (no process holds the lock on it) is removed by the next build.
extension SearchStore {
    /// How the name of a scratch store's folder begins, in the temporary folder.
    private static let scratchFolderPrefix = "journal-rebuild-"

    /// Indexes every entry of `main` into a new search store encrypted like `search`, then
    /// removes it.
    package static func buildScratchCopy(of main: MainStore, like search: SearchStore) throws(JournalError) {
        let temporary = FileManager.default.temporaryDirectory
        removeAbandonedScratchFolders(in: temporary)
        let folder = temporary.appendingPathComponent(scratchFolderPrefix + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = StoreDirectory(folder)
        try directory.prepare(create: true)
        let held = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if held >= 0 { flock(held, LOCK_EX | LOCK_NB) }
        defer { if held >= 0 { Glibc.close(held) } }
        let scratch = try SearchStore(
            url: directory.searchStoreURL, mainStoreID: main.storeID, encryption: search.encryption,
            identity: .scratchSearchStore)
        try SearchIndexer(main: main, search: scratch).catchUp()
    }

    /// Removes the scratch folders in `temporary` that no process builds in (their builder was
    /// killed): each a copy of a journal's index, encrypted under its key when it is encrypted.
    private static func removeAbandonedScratchFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(scratchFolderPrefix) {
            let folder = temporary.appendingPathComponent(name)
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { Glibc.close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
