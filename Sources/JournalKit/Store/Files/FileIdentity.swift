#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path names on disk: its device and inode. A folder swapped for another (a conversion),
/// or a file replaced by a rename, has another identity under the same path: how a store kept
/// open learns that its file is no longer the journal's (``StorePool``), and how opening learns
/// that the folder changed under it (``JournalStores``).
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of what `path` names now (symbolic links followed), nil when it names
    /// nothing.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity as a store keeps it (`device:inode`): a journal whose file's identity is not
    /// the one it kept is a copy, or was moved or converted, since it kept it.
    var claim: String { "\(device):\(inode)" }
}
