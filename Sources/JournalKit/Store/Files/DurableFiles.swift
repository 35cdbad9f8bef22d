import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names made durable: a folder created, or a file created, renamed or removed, survives a power
/// cut only once its parent folder is synced. SQLite syncs the folder when it creates a WAL
/// (its own files' contents follow ``Durability``); these are the journal's other names.
package enum DurableFiles {
    /// Syncs the folder at `url`, so that the names created, renamed or removed in it last.
    package static func syncFolder(_ url: URL) throws(JournalError) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .store("cannot open the folder \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw .store("cannot sync the folder \(url.path): \(String(cString: strerror(errno)))", file: url.path)
        }
    }

    /// Syncs the file at `path`, whoever wrote it (a sync flushes the file, not one descriptor's
    /// writes); a missing file has nothing to sync.
    package static func syncFile(atPath path: String) throws(JournalError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw .store("cannot open \(path): \(String(cString: strerror(errno)))", file: path)
        }
        defer { close(descriptor) }
        guard fdatasync(descriptor) == 0 else {
            throw .store("cannot sync \(path): \(String(cString: strerror(errno)))", file: path)
        }
    }

    /// Creates the folder at `url` and any missing parent, each readable by its owner only, and
    /// syncs each one's parent, so that the new path survives a power cut.
    package static func createFolder(_ url: URL) throws(JournalError) {
        var missing: [URL] = []
        var folder = url.standardizedFileURL
        while folder.path != "/", access(folder.path, F_OK) != 0 {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        for folder in missing.reversed() {
            guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else {
                throw .store("cannot create store directory \(url.path): \(String(cString: strerror(errno)))")
            }
            try syncFolder(folder.deletingLastPathComponent())
        }
    }

    /// Creates an empty file at `url` readable and writable by its owner only (SQLite gives its
    /// -wal and -shm files the same mode, so no store becomes readable by others), and syncs its
    /// folder when it was created. A file already there is left as it is.
    static func createPrivateFile(at url: URL) throws(JournalError) {
        let descriptor = open(url.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            try syncFolder(url.deletingLastPathComponent())
        } else if errno != EEXIST {
            throw .store("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
