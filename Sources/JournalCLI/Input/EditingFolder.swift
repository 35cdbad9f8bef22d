import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The private folder an entry is edited in, which only the user can enter: made new for each
/// edit, its file created exclusively (never through a name someone else placed), and removed
/// with everything the editor left beside the file (swap, backup and auto-save files), each
/// overwritten with zeros first.
///
/// It is made in `$XDG_RUNTIME_DIR`, the user's own folder of the session (memory, not disk,
/// on most systems), else inside the journal's folder, so that an encrypted journal's text
/// never lands in a shared temporary folder.
struct EditingFolder {
    /// The folder, mode 0700.
    let url: URL
    /// The file the editor opens, mode 0600.
    let file: URL

    /// A new folder holding `text` in its file, in `$XDG_RUNTIME_DIR` or else in `journalFolder`.
    init(text: String, journalFolder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let parent = Self.runtimeFolder(environment) ?? journalFolder
        if parent == journalFolder { try DurableFiles.createFolder(journalFolder) }
        var template = Array(parent.appendingPathComponent(StoreDirectory.editingFolderTemplate).path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw JournalError(
                .store,
                "cannot make a private folder for the editor in \(parent.path): \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(cString: made))
        file = url.appendingPathComponent("entry.txt")
        let descriptor = open(file.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(url.path)
            throw JournalError(.store, "cannot create the file for the editor in \(url.path): \(reason)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            remove()
            throw JournalError(.store, "cannot write the file for the editor in \(url.path)")
        }
    }

    /// `$XDG_RUNTIME_DIR` when it is an absolute folder of this user's that no one else may enter.
    private static func runtimeFolder(_ environment: [String: String]) -> URL? {
        guard let path = environment["XDG_RUNTIME_DIR"], path.hasPrefix("/") else { return nil }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o077 == 0
        else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// The file's bytes as the editor left them.
    func contents() -> Data? { FileManager.default.contents(atPath: file.path) }

    /// Overwrites every file in the folder with zeros, then removes them and the folder.
    func remove() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        for name in names {
            let path = url.appendingPathComponent(name).path
            let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                var status = stat()
                if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                    let zeros = [UInt8](repeating: 0, count: 1 << 16)
                    var left = Int(status.st_size)
                    while left > 0 {
                        let count = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress, min(left, $0.count)) }
                        guard count > 0 else { break }
                        left -= count
                    }
                    fsync(descriptor)
                }
                close(descriptor)
            }
            unlink(path)
        }
        rmdir(url.path)
    }
}
