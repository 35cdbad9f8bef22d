import Foundation

/// The folder journals sync through, as any tool carries it (Syncthing, Dropbox, rsync, git):
/// `journal-sync/<device UUID>/<number>.jsonl`, one subfolder per device, each file one sync's
/// lines (``SyncLine``), numbered from 1 in the order the device wrote them; a snapshot
/// (`<number>.snapshot.jsonl`) stands for every file before it, which its device then removes.
///
/// Beside its files, a device keeps how far it has taken in the others' (`taken.jsonl`,
/// ``SyncTaken``), and an encrypted journal's device its key (`device.key`, ``SyncSealing``).
///
/// Invariant: a device writes only in its own subfolder, and each file whole (``ReplacementFile``:
/// written beside, synced, renamed), so no two devices ever write one file and no sync tool
/// makes a conflicted copy of one; a file, once a later one exists, never changes, and is
/// removed only once a snapshot after it holds every line of it still needed. A file rewritten
/// before its successor (a sync interrupted after the rename, before the store recorded it)
/// starts with the same lines in the same order. Names that are not a device's UUID or a file's
/// (a sync tool's `conflicted copy`, a partial file) are passed over.
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
    /// start of its first file's first line (or of what it took in); nil when none is there yet.
    func kind(of device: UUID) -> Kind? {
        if FileManager.default.fileExists(atPath: keyURL(of: device).path) { return .sealed }
        let firstFile = fileURL(of: device, number: 1)
        let first =
            FileManager.default.fileExists(atPath: firstFile.path)
            ? firstFile : files(of: device).first.map { fileURL(of: device, $0) } ?? takenURL(of: device)
        guard let handle = try? FileHandle(forReadingFrom: first) else { return nil }
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

    /// One of a device's files: the lines of one sync, or a snapshot standing for every file
    /// before it.
    struct File: Hashable, Sendable {
        let number: Int
        var isSnapshot = false

        var name: String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
                + (isSnapshot ? ".snapshot.jsonl" : ".jsonl")
        }

        /// The file as its lines are sealed (``SyncSealing``): its number, and what it is.
        var sealedName: String { isSnapshot ? "\(number).snapshot" : String(number) }

        /// The file a name gives, nil for a name that is not a device file's.
        init?(name: String) {
            let isSnapshot = name.count == 23 && name.hasSuffix(".snapshot.jsonl")
            guard isSnapshot || name.count == 14 && name.hasSuffix(".jsonl") else { return nil }
            let digits = name.prefix(8)
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number > 0 else {
                return nil
            }
            self.init(number: number, isSnapshot: isSnapshot)
        }

        init(number: Int, isSnapshot: Bool = false) {
            self.number = number
            self.isSnapshot = isSnapshot
        }
    }

    func fileURL(of device: UUID, _ file: File) -> URL {
        deviceURL(device).appendingPathComponent(file.name)
    }

    func fileURL(of device: UUID, number: Int) -> URL { fileURL(of: device, File(number: number)) }

    /// Where `device` says how far it has taken in the others' files (``SyncTaken``).
    func takenURL(of device: UUID) -> URL {
        deviceURL(device).appendingPathComponent("taken.jsonl")
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

    /// `device`'s files to read, in order: from its first file, or from its latest snapshot
    /// when that reaches as far, up to the first one missing (a file whose predecessor has not
    /// arrived waits for it; files a snapshot stands for are passed over, as are those left
    /// while their removal travels).
    func files(of device: UUID) -> [File] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceURL(device).path)) ?? []
        let present = Dictionary(names.compactMap(File.init(name:)).map { ($0.number, $0) }) { one, other in
            one.isSnapshot ? one : other
        }
        func run(from start: Int) -> [File] {
            var files: [File] = []
            while let file = present[start + files.count], files.isEmpty || !file.isSnapshot { files.append(file) }
            return files
        }
        var best = present[1].map { _ in run(from: 1) } ?? []
        for snapshot in present.values where snapshot.isSnapshot {
            let files = run(from: snapshot.number)
            if files.last!.number >= best.last?.number ?? 0 { best = files }
        }
        return best
    }

    /// The number of the last file `device` wrote that the folder holds in order, 0 for none.
    func lastFile(of device: UUID) -> Int { files(of: device).last?.number ?? 0 }

    /// Writes `lines` as `device`'s file `file`, whole, replacing a file of that name an
    /// interrupted sync left; sealed by `sealing` when the folder is encrypted.
    func write(
        _ lines: [SyncLine], as device: UUID, _ file: File, sealedBy sealing: SyncSealing?
    ) throws(JournalError) {
        try DurableFiles.createFolder(deviceURL(device))
        let replacement = try ReplacementFile(replacing: fileURL(of: device, file))
        var bytes = Data()
        for (index, line) in lines.enumerated() {
            bytes.append(
                SyncLines.line(line, sealedBy: sealing, device: device, file: file.sealedName, number: index + 1))
        }
        try replacement.write(bytes)
        try replacement.commit()
    }

    /// Removes `device`'s files before `number`, which a snapshot of that number stands for.
    func removeFiles(of device: UUID, before number: Int) throws(JournalError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceURL(device).path)) ?? []
        for file in names.compactMap(File.init(name:)) where file.number < number {
            let url = fileURL(of: device, file)
            guard unlink(url.path) == 0 || errno == ENOENT else {
                throw .store("cannot remove \(url.path): \(String(cString: strerror(errno)))", file: url.path)
            }
        }
        try DurableFiles.syncFolder(deviceURL(device))
    }

    /// Writes how far `device` has taken in the others' files, whole.
    func writeTaken(_ taken: SyncTaken, of device: UUID, sealedBy sealing: SyncSealing?) throws(JournalError) {
        try DurableFiles.createFolder(deviceURL(device))
        let replacement = try ReplacementFile(replacing: takenURL(of: device))
        try replacement.write(SyncLines.line(taken, sealedBy: sealing, device: device, file: "taken", number: 1))
        try replacement.commit()
    }

    /// How far `device` has taken in the others' files, as it says: its one line, when it is
    /// whole and checks or opens; nil when there is no such file.
    func taken(by device: UUID, sealedBy sealing: SyncSealing?) -> SyncLines.Reading<SyncTaken>? {
        guard let data = try? Data(contentsOf: takenURL(of: device)) else { return nil }
        return SyncLines.read(data, sealedBy: sealing, device: device, file: "taken") { json, decoder in
            (try? decoder.decode(SyncTaken.self, from: json)).flatMap { $0.isWellFormed ? $0 : nil }
        }
    }

    /// The size of `device`'s file `file` in bytes, nil when it can't be read.
    func size(of device: UUID, _ file: File) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: fileURL(of: device, file).path)[.size])
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

    /// The lines of `device`'s file `file`, as far as they are whole (and open, by `sealing`,
    /// when the folder is encrypted).
    func read(
        _ device: UUID, _ file: File, sealedBy sealing: SyncSealing?
    ) throws(JournalError) -> SyncLines.Reading<SyncLine> {
        SyncLines.read(try contents(of: device, file), sealedBy: sealing, device: device, file: file.sealedName) {
            Self.line($0, $1)
        }
    }

    /// The lines of `device`'s file `file` as ``read(_:_:sealedBy:)`` reads them, each with what
    /// `preparing` makes of it, handed to `take` in runs as they are decoded and prepared
    /// (``SyncLines/read(_:sealedBy:device:file:decode:inRuns:)``).
    func read<Prepared: Sendable>(
        _ device: UUID, _ file: File, sealedBy sealing: SyncSealing?,
        preparing prepare: @Sendable @escaping (SyncLine) -> Prepared,
        inRuns take: ([(line: SyncLine, prepared: Prepared)], _ bytes: Int) throws -> Void
    ) throws -> SyncLines.Reading<(line: SyncLine, prepared: Prepared)> {
        try SyncLines.read(
            try contents(of: device, file), sealedBy: sealing, device: device, file: file.sealedName,
            decode: { json, decoder in Self.line(json, decoder).map { ($0, prepare($0)) } }, inRuns: take)
    }

    private func contents(of device: UUID, _ file: File) throws(JournalError) -> Data {
        let url = fileURL(of: device, file)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .store("cannot read \(url.path): \(error.localizedDescription)", file: url.path)
        }
    }

    /// A line's value, when it decodes and holds what a device would write: read by
    /// ``SyncLineScanner`` when it is sure of it, else by `decoder`.
    @Sendable private static func line(_ json: Data, _ decoder: JSONDecoder) -> SyncLine? {
        let scanned = json.withUnsafeBytes { SyncLineScanner.scan($0.assumingMemoryBound(to: UInt8.self)) }
        return (scanned ?? (try? decoder.decode(SyncLine.self, from: json))).flatMap { $0.isWellFormed ? $0 : nil }
    }
}
