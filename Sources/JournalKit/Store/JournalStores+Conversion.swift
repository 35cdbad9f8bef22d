import CFileExchange
import Foundation

/// Converting a journal's files from one encryption to another (plain text to encrypted, back,
/// or to a new key): a copy built beside the folder, checked, and swapped with it in one step.
///
/// Invariant: until the swap, the journal's folder is untouched; after it, the folder holds the
/// whole checked copy. No other process commits to the journal meanwhile (its main store's
/// write lock and its catch-up lock are held throughout).
extension JournalStores {
    /// Copies the stores into a new folder beside this one, through `encryption` (nil: plain
    /// text) with `keyFile`; checks the copy; swaps the two folders in one step; removes the old
    /// one. Files of the folder that are not the journal's are kept (hard links), and reported.
    /// `catchUp` brings the copy's search store up to date before it is checked (the indexer,
    /// which sits above the stores).
    func convert(
        to encryption: StoreEncryption?, keyFile: JournalKeyFile?, progress: ProgressHandler?,
        catchUp: (JournalStores) throws(JournalError) -> Void
    ) throws(JournalError) -> ConversionReport {
        if let unwritable { throw .store("the journal in \(directory.url.path) cannot be written: \(unwritable)") }
        let staging = StoreDirectory(
            directory.url.deletingLastPathComponent().appendingPathComponent(
                ".\(directory.url.lastPathComponent).converting"))
        if FileManager.default.fileExists(atPath: staging.url.path) {
            // A conversion cut short: its half-built copy.
            do { try FileManager.default.removeItem(at: staging.url) } catch {
                throw .store(
                    "cannot remove \(staging.url.path), left by a conversion cut short: \(error.localizedDescription)")
            }
        }
        try DurableFiles.createFolder(staging.url)
        var swapped = false
        // Before the swap, the staging path holds the half-built copy; after, the old journal,
        // removed below where the outcome is told.
        defer { if !swapped { try? FileManager.default.removeItem(at: staging.url) } }
        var closed = false
        defer { if !closed { try? close() } }
        let lock = try CatchUpLock.acquire(besides: search.url, timeout: StoreDatabase.busyTimeout)
        defer { lock.release() }
        let otherFiles = try main.holdingWriteLock { () throws(JournalError) -> [String] in
            let entries = try main.count()
            let mainBytes = StoreDirectory.fileBytes(main.url)
            let total = mainBytes + StoreDirectory.fileBytes(search.url)
            try StoreCopy.copy(
                main.url, encryption: self.encryption, identity: .mainStore, to: staging.mainStoreURL,
                encryption: encryption
            ) { done, _ in progress?(JournalProgress(phase: .converting, done: done, total: total)) }
            try StoreCopy.copy(
                search.url, encryption: self.encryption, identity: .searchStore, to: staging.searchStoreURL,
                encryption: encryption
            ) { done, _ in progress?(JournalProgress(phase: .converting, done: mainBytes + done, total: total)) }
            try keyFile?.write(to: staging.keyFileURL)
            let otherFiles = try Self.linkOtherFiles(from: directory, to: staging)
            let copy = try JournalStores.open(
                staging, unwritable: nil, encryption: encryption, use: .kept,
                folder: FileIdentity(path: staging.url.path))
            try catchUp(copy)
            // The prefix table file stays behind: an encrypted journal has none, and a journal in
            // plain text saves its own when it next catches up.
            try copy.search.forgetPrefixTableFile()
            let copied = try copy.main.count()
            try copy.close()
            guard copied == entries else {
                throw .store("the converted copy holds \(copied) entries, not \(entries): nothing was changed")
            }
            try DurableFiles.syncFolder(staging.url)
            guard file_exchange(staging.url.path, directory.url.path) == 0 else {
                throw .store(
                    "cannot put the converted journal in place of \(directory.url.path): \(String(cString: strerror(errno))); nothing was changed"
                )
            }
            swapped = true
            try DurableFiles.syncFolder(directory.url.deletingLastPathComponent())
            return otherFiles
        }
        try? close()
        closed = true
        do {
            try FileManager.default.removeItem(at: staging.url)
        } catch {
            return ConversionReport(otherFiles: otherFiles, leftOver: staging.url)
        }
        return ConversionReport(otherFiles: otherFiles, leftOver: nil)
    }

    /// Links the files of `directory` that are not the journal's own into `staging` (both on one
    /// file system), so the swap keeps them, and returns their names; a folder inside is an error.
    private static func linkOtherFiles(
        from directory: StoreDirectory, to staging: StoreDirectory
    ) throws(JournalError) -> [String] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path) } catch {
            throw .store("cannot list \(directory.url.path): \(error.localizedDescription)")
        }
        let others = names.filter { !directory.isOwnFile($0) }
        for name in others {
            let path = directory.url.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard !isFolder.boolValue else {
                throw .usage(
                    "\(directory.url.path) holds a folder, \(name), besides the journal: move it out first; nothing was changed"
                )
            }
            guard link(path, staging.url.appendingPathComponent(name).path) == 0 else {
                throw .store(
                    "cannot keep \(path) through the conversion: \(String(cString: strerror(errno))); nothing was changed"
                )
            }
        }
        return others.sorted()
    }
}
