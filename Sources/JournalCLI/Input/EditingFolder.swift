import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The private folder an entry is edited in, which only the user can enter: made new for each
/// edit, its file created exclusively (never through a name someone else placed), and, once
/// what was written is saved, removed with everything the editor left beside the file (swap,
/// backup and auto-save files), each overwritten with zeros first. When the save fails, it is
/// kept instead, renamed `.journal-unsaved-…`, and its file's path is told: what the user typed
/// is never thrown away.
///
/// It is made in `$XDG_RUNTIME_DIR`, the user's own folder of the session (memory, not disk,
/// on most systems), else inside the journal's folder, so that an encrypted journal's text
/// never lands in a shared temporary folder.
///
/// Invariant: while a process edits in the folder it holds an exclusive `flock` on it, so a
/// folder in the journal's folder that no process holds was left by an edit whose process was
/// killed (``tidy(journalFolder:encrypted:)`` deals with those).
final class EditingFolder: @unchecked Sendable {
    /// The folder, mode 0700.
    private(set) var url: URL
    /// The file the editor opens, mode 0600.
    var file: URL { url.appendingPathComponent(Self.fileName) }
    /// The folder opened and locked while this process edits in it.
    private var descriptor: Int32

    private static let fileName = "entry.txt"
    /// The name a folder is kept under when what was written in it could not be saved.
    static let keptPrefix = ".journal-unsaved-"

    /// A new folder holding `text` in its file, in `$XDG_RUNTIME_DIR` or else in `journalFolder`.
    init(text: String, journalFolder: URL, environment: [String: String] = ProcessEnvironment.variables) throws {
        let parent = Self.runtimeFolder(environment) ?? journalFolder
        if parent == journalFolder { try DurableFiles.createFolder(journalFolder) }
        var template = Array(parent.appendingPathComponent(StoreDirectory.editingFolderTemplate).path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw JournalError(
                .store,
                "cannot make a private folder for the editor in \(parent.path): \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(cString: made))
        descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 { flock(descriptor, LOCK_EX | LOCK_NB) }
        let file = url.appendingPathComponent(Self.fileName)
        let output = open(file.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            let reason = String(cString: strerror(errno))
            remove()
            throw JournalError(.store, "cannot create the file for the editor in \(url.path): \(reason)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        close(output)
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
        Self.wipe(url)
        unlock()
    }

    /// Keeps the folder, renamed `.journal-unsaved-…` beside where it is, synced, and returns
    /// the path of its file. (Renaming fails only on a folder that can't be written; the file
    /// then stays where it is.)
    func keep() -> String {
        let kept = url.deletingLastPathComponent().appendingPathComponent(
            Self.keptPrefix + url.lastPathComponent.dropFirst(StoreDirectory.editingFolderPrefix.count))
        if rename(url.path, kept.path) == 0 {
            url = kept
            try? DurableFiles.syncFolder(kept.deletingLastPathComponent())
        }
        let path = file.path
        try? DurableFiles.syncFile(atPath: path)
        unlock()
        return path
    }

    private func unlock() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// What edits left in `journalFolder`: a folder no process edits in any more was left by a
    /// process that was killed, and is removed (wiped first) in an encrypted journal, which
    /// keeps no entry's text in the clear, or else kept as unsaved. Returns a line for the user
    /// about each folder removed and each kept (until the user removes it).
    static func tidy(journalFolder: URL, encrypted: Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: journalFolder.path)) ?? []
        var lines: [String] = []
        for name in names.sorted() {
            let folder = journalFolder.appendingPathComponent(name)
            if name.hasPrefix(StoreDirectory.editingFolderPrefix) {
                let held = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard held >= 0 else { continue }
                defer { close(held) }
                guard flock(held, LOCK_EX | LOCK_NB) == 0 else { continue }
                if encrypted {
                    wipe(folder)
                    lines.append(
                        "removed \(folder.path), the text of an edit whose process was killed: an encrypted journal keeps no entry in the clear"
                    )
                    continue
                }
                let kept = journalFolder.appendingPathComponent(
                    keptPrefix + name.dropFirst(StoreDirectory.editingFolderPrefix.count))
                guard rename(folder.path, kept.path) == 0 else { continue }
                lines.append(keptLine(kept.appendingPathComponent(fileName).path, cause: "an edit was cut short"))
            } else if name.hasPrefix(keptPrefix) {
                lines.append(keptLine(folder.appendingPathComponent(fileName).path, cause: "an edit was not saved"))
            }
        }
        return lines
    }

    /// The line that tells where unsaved text is kept, and what to do with it.
    static func keptLine(_ path: String, cause: String) -> String {
        "\(cause): the text is kept in \(path) (save it with journal add < FILE, or journal edit ID --text, then delete its folder)"
    }

    /// Overwrites every file in `folder` with zeros, then removes them and the folder.
    private static func wipe(_ folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let path = folder.appendingPathComponent(name).path
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
        rmdir(folder.path)
    }
}
