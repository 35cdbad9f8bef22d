import Foundation
import GRDBSQLite
import Testing

@testable import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// SQLite's Unix VFS sets a WAL's owner through ``LogOwnership/ownerIfDifferent`` once a store
/// has opened: a call that changes nothing makes no `fchown`, one that changes something does.
@Suite struct LogOwnershipTests {
    /// The `fchown` SQLite's Unix VFS calls now.
    static func vfsFchown() throws -> @convention(c) (Int32, uid_t, gid_t) -> Int32 {
        let vfs = try #require(sqlite3_vfs_find("unix"))
        let call = try #require(vfs.pointee.xGetSystemCall?(vfs, "fchown"))
        return unsafeBitCast(call, to: (@convention(c) (Int32, uid_t, gid_t) -> Int32).self)
    }

    @Test func aStoreOpenedRoutesTheVFSsFchownThroughIt() throws {
        _ = try TemporaryJournal()
        let installed = try Self.vfsFchown()
        #expect(
            unsafeBitCast(installed, to: UnsafeRawPointer.self)
                == unsafeBitCast(LogOwnership.ownerIfDifferent, to: UnsafeRawPointer.self))
    }

    /// Runs `body` with a descriptor of a new file, open for reading and writing.
    private func withNewFile(_ body: (Int32) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite-wal").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("log".utf8)))
        let fd = open(path, O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        try body(fd)
    }

    /// The file's status.
    private func status(_ fd: Int32) throws -> stat {
        var status = stat()
        try #require(fstat(fd, &status) == 0)
        return status
    }

    /// A `fchown` changes the file's ctime even when it leaves the owner as it was; the call
    /// leaves the ctime alone when the owner is already right.
    @Test func anOwnerAlreadyRightMakesNoFchown() throws {
        try withNewFile { fd in
            let created = try status(fd)
            usleep(50_000)
            #expect(LogOwnership.ownerIfDifferent(fd, created.st_uid, created.st_gid) == 0)
            let afterSkipped = try status(fd).st_ctim
            #expect(afterSkipped.tv_sec == created.st_ctim.tv_sec && afterSkipped.tv_nsec == created.st_ctim.tv_nsec)
            #expect(fchown(fd, created.st_uid, created.st_gid) == 0)
            let afterFchown = try status(fd).st_ctim
            #expect(afterFchown.tv_sec != created.st_ctim.tv_sec || afterFchown.tv_nsec != created.st_ctim.tv_nsec)
        }
    }

    /// As root, a different owner is given (SQLite's intent for the WAL of a store root opens).
    @Test(.enabled(if: geteuid() == 0)) func aDifferentOwnerIsGiven() throws {
        try withNewFile { fd in
            #expect(LogOwnership.ownerIfDifferent(fd, 1, 1) == 0)
            let changed = try status(fd)
            #expect(changed.st_uid == 1 && changed.st_gid == 1)
        }
    }
}
