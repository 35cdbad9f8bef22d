import Foundation

/// The folder journals sync through, as any tool carries it (Syncthing, Dropbox, rsync, git):
/// `journal-sync/<device UUID>/<number>.jsonl`, one subfolder per device, each file one sync's
/// records (``SyncRecord``), numbered from 1 in the order the device wrote them.
///
/// Invariant: a device writes only in its own subfolder, and each file whole (``ReplacementFile``:
/// written beside, synced, renamed), so no two devices ever write one file and no sync tool
/// makes a conflicted copy of one; a file, once a later one exists, never changes. A file
/// rewritten before its successor (a sync interrupted after the rename, before the store
/// recorded it) starts with the same records in the same order. Names that are not a device's
/// UUID or a file's number (a sync tool's `conflicted copy`, a partial file) are passed over.
struct SyncFolder: Sendable {
    let url: URL

    static let subfolder = "journal-sync"

    var devicesURL: URL { url.appendingPathComponent(Self.subfolder, isDirectory: true) }

    /// The folder's key, wrapped under the passphrase of the encrypted journals that sync
    /// through it (``SyncSealing``); none for a folder of plain journals.
    var keyURL: URL { devicesURL.appendingPathComponent("folder.key") }

    func deviceURL(_ device: UUID) -> URL {
        devicesURL.appendingPathComponent(device.uuidString, isDirectory: true)
    }

    func fileURL(of device: UUID, number: Int) -> URL {
        deviceURL(device).appendingPathComponent(Self.fileName(number))
    }

    static func fileName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".jsonl"
    }

    /// The file number a name gives, nil for a name that is not a device file's.
    static func fileNumber(_ name: String) -> Int? {
        guard name.count == 14, name.hasSuffix(".jsonl") else { return nil }
        let digits = name.prefix(8)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number > 0 else { return nil }
        return number
    }

    /// Checks that the folder exists and is a folder, and makes its `journal-sync` subfolder.
    func prepare() throws(JournalError) {
        try check()
        try DurableFiles.createFolder(devicesURL)
    }

    /// Checks that the folder exists and is a folder.
    func check() throws(JournalError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw .usage("\(url.path) does not exist: give a folder that a sync tool carries, or make it first")
        }
        guard isFolder.boolValue else { throw .usage("\(url.path) is not a folder") }
    }

    /// The devices that have written in the folder.
    func devices() -> [UUID] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devicesURL.path)) ?? []
        return names.compactMap { name in UUID(uuidString: name).flatMap { $0.uuidString == name ? $0 : nil } }
            .sorted { $0.uuidString < $1.uuidString }
    }

    /// The numbers of `device`'s files, from 1 up to the first missing one (a later file whose
    /// predecessor has not arrived waits for it).
    func files(of device: UUID) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceURL(device).path)) ?? []
        let numbers = Set(names.compactMap(Self.fileNumber))
        var present: [Int] = []
        while numbers.contains(present.count + 1) { present.append(present.count + 1) }
        return present
    }

    /// Writes `records` as `device`'s file `number`, whole, replacing a file of that number an
    /// interrupted sync left; sealed by `sealing` when the folder is encrypted.
    func write(
        _ records: [SyncRecord], as device: UUID, number: Int, sealedBy sealing: SyncSealing?
    ) throws(JournalError) {
        try DurableFiles.createFolder(deviceURL(device))
        let file = try ReplacementFile(replacing: fileURL(of: device, number: number))
        var bytes = Data()
        for (index, record) in records.enumerated() {
            bytes.append(record.line(sealedBy: sealing, device: device, file: number, number: index + 1))
        }
        try file.write(bytes)
        try file.commit()
    }

    /// The size of `device`'s file `number` in bytes, nil when it can't be read.
    func size(of device: UUID, number: Int) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: fileURL(of: device, number: number).path)[.size])
            .flatMap { $0 as? Int }
    }

    /// Puts `key` at ``keyURL`` unless a key is there already: written beside, synced, then
    /// linked into place, which fails rather than replace one another journal put there.
    func writeKeyUnlessPresent(_ key: JournalKeyFile) throws(JournalError) {
        let beside = devicesURL.appendingPathComponent(".folder.key.\(UUID().uuidString)")
        try key.write(to: beside)
        defer { unlink(beside.path) }
        guard link(beside.path, keyURL.path) == 0 || errno == EEXIST else {
            throw .store("cannot write \(keyURL.path): \(String(cString: strerror(errno)))", file: keyURL.path)
        }
        try DurableFiles.syncFolder(devicesURL)
    }

    /// The records of `device`'s file `number`, as far as they are whole (and open, by
    /// `sealing`, when the folder is encrypted).
    func read(_ device: UUID, number: Int, sealedBy sealing: SyncSealing?) throws(JournalError) -> SyncRecord.Reading {
        let url = fileURL(of: device, number: number)
        do {
            return SyncRecord.records(
                in: try Data(contentsOf: url), sealedBy: sealing, device: device, file: number)
        } catch {
            throw .store("cannot read \(url.path): \(error.localizedDescription)", file: url.path)
        }
    }
}
