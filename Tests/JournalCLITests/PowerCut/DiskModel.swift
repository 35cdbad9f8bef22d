import Foundation

/// What a power cut may take: the writes made since a file's last sync and the names made
/// since its folder's last sync are the ones at risk.
enum PowerLoss: String, CaseIterable, CustomStringConvertible {
    /// Every unsynced write and name is lost.
    case unsyncedLost
    /// Every unsynced write and name is lost, but the last unsynced write of each file reached
    /// the disk in part (a torn page: its first sectors).
    case lastWriteTorn
    /// Every unsynced write and name reached the disk, but the last write of each file is torn.
    case onlyLastWriteTorn

    var description: String { rawValue }
}

/// A model of the disk under one folder while a recorded process changes it: each file's bytes
/// now and as last synced, with the writes since; each folder's names now and as last synced.
/// Applying the recorder's calls in order, it can write out, at any point, what the disk would
/// hold after a power cut there (`materialize`), under each ``PowerLoss``.
///
/// What it models: a write is durable once its file is synced (`fsync`/`fdatasync`); a name
/// (a file created, renamed, removed, a folder made) once its folder is synced; what was not
/// made durable may be lost, whole or a torn last write. What it cannot: writes reordered
/// within a file beyond the torn last one, a disk that acknowledges a sync it did not do,
/// or memory-mapped writes, which SQLite makes only to its `-shm` files. Those are left out of
/// the model: a power cut leaves SQLite's shared-memory index to be rebuilt from the WAL by the
/// next connection, by SQLite's design, so a cut leaves none. `differences(from:)` checks that
/// the model, after every call, holds exactly what the real files hold, so a write the
/// recorder did not see fails the test instead of going unmodelled.
struct DiskModel {
    private enum Item: Equatable {
        case file(Int)
        case folder
    }

    private enum Change {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)

        func apply(to bytes: inout [UInt8]) {
            switch self {
            case .write(let offset, let written):
                if bytes.count < offset + written.count {
                    bytes += [UInt8](repeating: 0, count: offset + written.count - bytes.count)
                }
                bytes.replaceSubrange(offset..<offset + written.count, with: written)
            case .truncate(let size):
                if size < bytes.count {
                    bytes.removeSubrange(size...)
                } else {
                    bytes += [UInt8](repeating: 0, count: size - bytes.count)
                }
            }
        }

        /// The part of a write a torn page leaves: its first half, in whole 512-byte sectors when
        /// it spans two or more; a truncation is all or nothing, so none of it.
        var torn: Change? {
            guard case .write(let offset, let bytes) = self else { return nil }
            let kept = bytes.count >= 1024 ? bytes.count / 2 / 512 * 512 : max(1, bytes.count / 2)
            return .write(offset: offset, bytes: Array(bytes.prefix(kept)))
        }
    }

    private struct File {
        var current: [UInt8]
        var synced: [UInt8]
        var pending: [Change] = []
    }

    private enum Opened {
        case file(Int)
        case folder(String)
    }

    let root: String
    private var files: [Int: File] = [:]
    private var names: [String: Item] = [:]
    private var syncedNames: [String: Item] = [:]
    private var descriptors: [Int32: Opened] = [:]

    /// The folder at `root` as it is now, all of it durable.
    init(root: URL) throws {
        self.root = root.path
        for path in try Self.tree(at: root) {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue {
                names[path] = .folder
            } else {
                let id = files.count
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                files[id] = File(current: bytes, synced: bytes)
                names[path] = .file(id)
            }
        }
        syncedNames = names
    }

    /// SQLite's shared-memory index, written through memory maps: not modelled (see above).
    private static func isUnmodelled(_ path: String) -> Bool { path.hasSuffix("-shm") }

    private static func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// Every path under `root`, `-shm` files left out.
    private static func tree(at root: URL) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { root.path + "/" + $0 }.filter { !isUnmodelled($0) }
    }

    /// Applies one recorded call; throws when it contradicts the model (the recorder missed a
    /// change).
    mutating func apply(_ call: RecordedCall) throws {
        switch call {
        case .open(let descriptor, let path, let flags, let existed, let isFolder):
            if isFolder {
                descriptors[descriptor] = .folder(path)
                return
            }
            if Self.isUnmodelled(path) { return }
            guard existed == (names[path] != nil) else { throw ModelError.disagrees("\(path) existed: \(existed)") }
            let id: Int
            if case .file(let known) = names[path] {
                id = known
                if flags & O_TRUNC != 0 { change(id, .truncate(0)) }
            } else {
                id = (files.keys.max() ?? -1) + 1
                files[id] = File(current: [], synced: [])
                names[path] = .file(id)
            }
            descriptors[descriptor] = .file(id)
        case .close(let descriptor):
            descriptors[descriptor] = nil
        case .write(let descriptor, let offset, let bytes):
            if case .file(let id) = descriptors[descriptor] { change(id, .write(offset: offset, bytes: bytes)) }
        case .truncate(let descriptor, let size):
            if case .file(let id) = descriptors[descriptor] { change(id, .truncate(size)) }
        case .sync(let descriptor, _):
            switch descriptors[descriptor] {
            case .file(let id):
                files[id]!.synced = files[id]!.current
                files[id]!.pending = []
            case .folder(let folder):
                for path in Set(names.keys).union(syncedNames.keys) where Self.parent(path) == folder {
                    syncedNames[path] = names[path]
                }
            case nil: break
            }
        case .rename(let from, let to):
            guard !Self.isUnmodelled(from) else { return }
            guard let item = names[from], item != .folder else { throw ModelError.disagrees("rename of \(from)") }
            names[to] = item
            names[from] = nil
        case .unlink(let path):
            guard !Self.isUnmodelled(path) else { return }
            guard names[path] != nil else { throw ModelError.disagrees("\(path) removed but not known") }
            names[path] = nil
        case .makeFolder(let path):
            names[path] = .folder
        }
    }

    private mutating func change(_ id: Int, _ change: Change) {
        change.apply(to: &files[id]!.current)
        files[id]!.pending.append(change)
    }

    /// Writes what the disk would hold after a power cut now, with `loss`, into the new folder
    /// `destination` (standing for `root`).
    func materialize(_ loss: PowerLoss, at destination: URL) throws {
        let namespace = loss == .onlyLastWriteTorn ? names : syncedNames
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        // A name survives when every folder above it, up to the root, does.
        func survives(_ path: String) -> Bool {
            let parent = Self.parent(path)
            return parent == root || (namespace[parent] == .folder && survives(parent))
        }
        for (path, item) in namespace.sorted(by: { $0.key.count < $1.key.count }) where survives(path) {
            let target = destination.path + path.dropFirst(root.count)
            switch item {
            case .folder:
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            case .file(let id):
                let file = files[id]!
                var bytes = file.synced
                switch loss {
                case .unsyncedLost: break
                case .lastWriteTorn: file.pending.last?.torn?.apply(to: &bytes)
                case .onlyLastWriteTorn:
                    for change in file.pending.dropLast() { change.apply(to: &bytes) }
                    file.pending.last?.torn?.apply(to: &bytes)
                }
                guard
                    FileManager.default.createFile(
                        atPath: target, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
                else {
                    throw ModelError.disagrees("cannot write \(target)")
                }
            }
        }
    }

    /// Where the model differs from the real files under `root` now: empty when the recorder
    /// saw every change.
    func differences(fromFilesAt root: URL) throws -> [String] {
        var problems: [String] = []
        let real = Set(try Self.tree(at: root))
        let modelled = Set(names.keys)
        for path in real.symmetricDifference(modelled) {
            problems.append("\(path): \(real.contains(path) ? "not in the model" : "missing")")
        }
        for path in real.intersection(modelled) {
            guard case .file(let id) = names[path] else { continue }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if bytes != files[id]!.current {
                problems.append("\(path): \(bytes.count) bytes, the model has \(files[id]!.current.count)")
            }
        }
        return problems
    }

    enum ModelError: Error {
        case disagrees(String)
    }
}
