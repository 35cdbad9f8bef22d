import Foundation

/// The folder journals sync through, as any tool carries it (Syncthing, Dropbox, rsync, git):
/// `journal-sync/<device UUID>/<number>.jsonl`, one subfolder per device, each file one sync's
/// records (``SyncRecord``), numbered from 1 in the order the device wrote them.
///
/// An encrypted journal's device keeps its key beside its files (`device.key`, ``SyncSealing``).
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

    func deviceURL(_ device: UUID) -> URL {
        devicesURL.appendingPathComponent(device.uuidString, isDirectory: true)
    }

    /// The key `device` seals its lines with, wrapped under its journal's passphrase
    /// (``SyncSealing``); none for a journal in plain text.
    func keyURL(of device: UUID) -> URL {
        deviceURL(device).appendingPathComponent("device.key")
    }

    /// How a device writes its lines.
    enum Kind {
        case plain, sealed
    }

    /// How `device` writes its lines, told by its key or, before the key has arrived, by the
    /// start of its first line; nil when neither is there yet.
    func kind(of device: UUID) -> Kind? {
        if FileManager.default.fileExists(atPath: keyURL(of: device).path) { return .sealed }
        guard let handle = try? FileHandle(forReadingFrom: fileURL(of: device, number: 1)) else { return nil }
        defer { try? handle.close() }
        // A plain line starts with its checksum (32 hexadecimal digits), a space and the JSON; a
        // sealed one is base64, without a space.
        guard let start = try? handle.read(upToCount: 34), start.count == 34 else { return nil }
        let bytes = [UInt8](start)
        let isPlain =
            bytes[32] == 0x20 && bytes[33] == UInt8(ascii: "{")
            && bytes[..<32].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        return isPlain ? .plain : .sealed
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

    /// Puts `key` as `device`'s unless a key is there already (an earlier sync's, interrupted
    /// before the journal kept it): written beside, synced, then linked into place, which never
    /// replaces a key.
    func writeKeyUnlessPresent(_ key: JournalKeyFile, of device: UUID) throws(JournalError) {
        let folder = deviceURL(device)
        try DurableFiles.createFolder(folder)
        let (beside, target) = (folder.appendingPathComponent(".device.key.\(UUID().uuidString)"), keyURL(of: device))
        try key.write(to: beside)
        defer { unlink(beside.path) }
        guard link(beside.path, target.path) == 0 || errno == EEXIST else {
            throw .store("cannot write \(target.path): \(String(cString: strerror(errno)))", file: target.path)
        }
        try DurableFiles.syncFolder(folder)
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
