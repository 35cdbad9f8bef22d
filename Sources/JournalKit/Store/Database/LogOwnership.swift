import Foundation
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How SQLite gives a store's WAL its owner, in a process running as root: only when the WAL
/// is not already the store's owner's.
///
/// Invariant: a WAL SQLite opens ends up with the store file's owner and group, as SQLite
/// intends, and a process that opens a store never waits for the lock of a WAL whose owner is
/// already right.
///
/// SQLite's Unix VFS calls `fchown` on every WAL it opens as root (so that root never leaves a
/// store its owner can't open). `fchown` takes the file's inode lock even when it changes
/// nothing, and a checkpoint that empties a large WAL holds that lock while the file system
/// frees its blocks, so a search started as an import ends waits in `fchown` for the
/// `ftruncate` of the import's WAL. Containers commonly run
/// as root. Other users' processes never call `fchown` there, and this changes nothing for them.
enum LogOwnership {
    /// Routes the Unix VFS's `fchown` through ``ownerIfDifferent`` for the whole process (every
    /// VFS the stores use, the encrypting one included, opens files through it). Runs once,
    /// before the first store opens.
    static let installed: Void = {
        guard let vfs = sqlite3_vfs_find("unix"), vfs.pointee.iVersion >= 3,
            let setSystemCall = vfs.pointee.xSetSystemCall
        else { return }
        _ = setSystemCall(vfs, "fchown", unsafeBitCast(ownerIfDifferent, to: sqlite3_syscall_ptr.self))
    }()

    /// `fchown(fd, owner, group)`, skipped when the file already has them.
    static let ownerIfDifferent: @convention(c) (Int32, uid_t, gid_t) -> Int32 = { fd, owner, group in
        var status = stat()
        if fstat(fd, &status) == 0, status.st_uid == owner, status.st_gid == group { return 0 }
        return fchown(fd, owner, group)
    }
}
