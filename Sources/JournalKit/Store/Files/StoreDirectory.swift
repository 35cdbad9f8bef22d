import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder that holds a journal: `journal.sqlite` (the entries) and `search.sqlite` (the
/// tokens) side by side. Created readable by its owner only.
public struct StoreDirectory: Sendable, Equatable {
    /// The folder.
    public let url: URL

    /// The journal folder at `url`.
    public init(_ url: URL) { self.url = url.standardizedFileURL }

    /// The journal folder at `path`.
    public init(path: String) { self.init(URL(fileURLWithPath: path)) }

    /// The main store: the entries, their canonical text, and the change history.
    public var mainStoreURL: URL { url.appendingPathComponent("journal.sqlite") }
    /// The search store: every entry's tokens, derived from the main store.
    public var searchStoreURL: URL { url.appendingPathComponent("search.sqlite") }
    /// An encrypted journal's key file: its data key, wrapped under the passphrase.
    public var keyFileURL: URL { url.appendingPathComponent("journal.key") }

    /// The name of the private folder an entry being edited is written in while the editor has
    /// it, `XXXXXX` to be made unique (`mkdtemp`): in the journal's folder only when there is no
    /// private runtime folder.
    public static let editingFolderTemplate = editingFolderPrefix + "XXXXXX"
    /// How the name of a folder an entry is edited in begins.
    public static let editingFolderPrefix = ".journal-edit-"

    /// Whether the file or folder called `name` in the folder is the journal's own: a store with
    /// its WAL, shared memory and side files, the key file, or an edit's file cut short (in plain
    /// text: removed with the journal's old files in a conversion, not carried into the new
    /// folder).
    func isOwnFile(_ name: String) -> Bool {
        let own = [mainStoreURL, searchStoreURL, keyFileURL].map(\.lastPathComponent)
        return name.hasPrefix(Self.editingFolderPrefix)
            || own.contains { name == $0 || name.hasPrefix($0 + "-") || name.hasPrefix("." + $0) }
    }

    /// Whether the folder holds an encrypted journal (it has a key file).
    public var isEncrypted: Bool { FileManager.default.fileExists(atPath: keyFileURL.path) }

    /// The default journal: `$XDG_DATA_HOME/journal`, or `~/.local/share/journal`.
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StoreDirectory {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return StoreDirectory(path: data + "/journal")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return StoreDirectory(path: home + "/.local/share/journal")
    }

    /// Makes sure the folder holds a journal, and says whether it can be written: nil when it
    /// can, else why not. With `create`, a missing folder is created (owner-only) and a missing
    /// journal is fine; without, both are errors.
    @discardableResult
    func prepare(create: Bool) throws(JournalError) -> String? {
        var isDirectory: ObjCBool = false
        let path = url.path
        let missingJournal = JournalError(.noJournal, "no journal in \(path)", file: path)
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .store("store path \(path) is a file, not a directory") }
            guard create || FileManager.default.fileExists(atPath: mainStoreURL.path) else { throw missingJournal }
        } else {
            guard create else { throw missingJournal }
            try DurableFiles.createFolder(url)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            guard !create || FileManager.default.fileExists(atPath: mainStoreURL.path) else {
                throw .store("cannot create a journal in \(path): \(reason)", file: path)
            }
            return reason
        }
        return nil
    }

    /// The bytes of every file in the folder: what the journal takes on disk (0 when there is
    /// no folder).
    public var bytesOnDisk: Int {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return files.reduce(0) { $0 + (Self.fileSize(atPath: url.appendingPathComponent($1).path) ?? 0) }
    }

    /// The bytes of an SQLite file with its -wal and -shm files.
    package static func fileBytes(_ url: URL) -> Int {
        ["", "-wal", "-shm"].reduce(0) { total, suffix in total + (fileSize(atPath: url.path + suffix) ?? 0) }
    }

    /// The size of the file at `path`, or nil when there is none. (`stat` alone: Foundation's
    /// file attributes also look up the owner's name, which a search need not wait for.)
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }
}
