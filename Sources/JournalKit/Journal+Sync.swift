import Foundation
import GRDB

/// One journal on several machines: each sync writes the versions of the entries changed here
/// into this device's own files of a folder any tool carries, and takes in the other devices'
/// (``SyncFolder``, ``SyncRecord``, ``SyncMerge``; the rules in <doc:Syncing>).
extension Journal {
    /// Exchanges changes with `folder`, or with the folder of the last sync when nil; the folder
    /// is remembered for the next. Runs as any change of the journal does (its lock held, the
    /// search store brought up to date after).
    ///
    /// An encrypted journal seals what it writes there under a key of its own, which its
    /// `passphrase` wraps at its first sync, and opens another journal's under that journal's
    /// key, which the passphrase unwraps: needed only at a sync that meets a journal new to it.
    /// A wrong passphrase is refused, writing nothing. A folder of plain journals and an
    /// encrypted journal, or the reverse, refuse each other, writing nothing.
    ///
    /// `progress` hears how far the other journals' files are taken in (``JournalProgress/Phase/syncing``),
    /// then how the search store catches up with them.
    public func sync(
        through folder: URL? = nil, passphrase: Passphrase? = nil, progress: ProgressHandler? = nil
    ) throws(JournalError) -> SyncReport {
        try write(progress: progress) { hooks throws(JournalError) in
            let place = try syncFolder(given: folder)
            try place.check()
            var keys = try keys(for: place, passphrase: passphrase)
            try finishSnapshot(in: place, keys: keys)
            try checkHoldsOwnFiles(place)
            try place.prepare()
            var report = try sendChanges(through: place, keys: &keys, passphrase: passphrase, hooks)
            try takeIn(from: place, keys: keys, hooks, into: &report, progress: progress)
            do throws(JournalError) {
                try compact(place, keys: &keys, passphrase: passphrase, report: &report)
            } catch {
                report.notCompacted = error.message
            }
            return report
        }
    }

    /// The entries `ids` as this journal numbers them: an identifier it made stands; a URI
    /// sync knows names the entry sync holds for it (on a copy of a journal, its own URI may
    /// name an entry the journal it was copied from made); any other URI of this journal's
    /// store names its own entry of that number. Throws for a URI of another journal's entry
    /// this one doesn't hold.
    func local(_ ids: [EntryID]) throws(JournalError) -> [EntryID] {
        let asked = ids.filter { $0.storeID != storeID || $0.syncURI == nil }
        guard !asked.isEmpty else { return ids }
        let held = try main.read { db -> [String: Int64?] in
            guard try SyncLedger.isStarted(in: db) else { return [:] }
            var held: [String: Int64?] = [:]
            for id in asked { held[id.uri] = try SyncLedger.held(uri: id.uri, in: db).map(\.n) }
            return held
        }
        return try ids.map { id throws(JournalError) in
            if id.storeID == storeID {
                guard id.syncURI == nil, case .some(.some(let n)) = held[id.uri], n != id.number else { return id }
                return EntryID(storeID: storeID, number: n, syncURI: id.uri)
            }
            switch held[id.uri] {
            case .some(.some(let n)): return EntryID(storeID: storeID, number: n, syncURI: id.uri)
            case .some(.none): throw JournalError(.notFound, "no entry \(id.uri): it was deleted", entry: id)
            case .none:
                throw JournalError(
                    .notFound, "\(id.uri) belongs to another journal (this one is \(storeID.uuidString))", entry: id)
            }
        }
    }

    /// Checks that `folder` is a folder to sync through, before a journal is opened (or made) for it.
    public static func checkSyncFolder(_ folder: URL) throws(JournalError) {
        try SyncFolder(url: folder).check()
    }

    /// Where the journal stands with its folder, reading it and writing nothing.
    public func syncStatus() throws(JournalError) -> SyncStatus {
        let known = try main.read { db -> (String?, UUID?, Int, [UUID: SyncLedger.Position], [UUID: Int64]) in
            guard try SyncLedger.isStarted(in: db) else { return (nil, nil, 0, [:], [:]) }
            let peers = try SyncLedger.peers(in: db)
            return (
                try SyncLedger.info(SyncLedger.Key.folder, in: db),
                try SyncLedger.info(SyncLedger.Key.device, in: db).flatMap(UUID.init(uuidString:)),
                try SyncLedger.pendingCount(in: db),
                Dictionary(uniqueKeysWithValues: peers.map { ($0.device, $0.position) }),
                try SyncLedger.forgotten(in: db)
            )
        }
        var status = SyncStatus(folder: known.0, device: known.1, pending: known.2, devices: [])
        guard let path = known.0 else { return status }
        let place = SyncFolder(url: URL(fileURLWithPath: path))
        let kept = isEncrypted ? try main.read { db in try SyncLedger.keptKeys(in: db) } : [:]
        let now = SyncTaken.now()
        for device in place.devices() {
            let files = place.files(of: device)
            let last = files.last.map { place.fileURL(of: device, $0) }
            let written = last.flatMap {
                try? FileManager.default.attributesOfItem(atPath: $0.path)[.modificationDate] as? Date
            }
            var takenIn = device == known.1
            if !takenIn, let lastFile = files.last, let position = known.3[device], position.file == lastFile.number {
                takenIn = place.size(of: device, lastFile) == position.bytes
            }
            var entry = SyncStatus.Device(
                id: device, isThisJournal: device == known.1, files: files.count, lastWritten: written,
                isTakenIn: takenIn || files.isEmpty)
            let sealing = kept[device].flatMap { text in
                (try? JournalKeyFile.read(at: place.keyURL(of: device))).flatMap { $0 }
                    .flatMap { Self.keptKey(text, for: $0.journal) }.map(SyncSealing.init)
            }
            let said = !isEncrypted || sealing != nil ? place.taken(by: device, sealedBy: sealing)?.values.first : nil
            entry.lastSaid = said?.at.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            if device != known.1 {
                entry.isWaitedFor = SyncTaken.waits(for: said, forgotten: known.4[device], now: now)
                entry.isForgotten = known.4[device].map { (said?.at ?? .min) <= $0 } ?? false
            }
            status.devices.append(entry)
        }
        // This journal, before it has written a file of its own.
        if let device = known.1, !status.devices.contains(where: \.isThisJournal) {
            status.devices.append(
                SyncStatus.Device(id: device, isThisJournal: true, files: 0, lastWritten: nil, isTakenIn: true))
        }
        return status
    }

    /// Tells this journal that `device` of its folder is gone (a machine retired, a journal
    /// deleted): compaction here no longer waits for it to take versions in, as for a device
    /// silent for 30 days, until it says again how far it has taken in (at a sync that takes
    /// in or writes anything, or a day after it last said). What it may still send, made from
    /// versions removed meanwhile, is kept as conflict copies: nothing is lost. The floors this
    /// journal writes reach the others, so telling one journal is enough. Returns the device as
    /// ``syncStatus()`` shows it now.
    public func forgetSyncDevice(_ device: UUID) throws(JournalError) -> SyncStatus.Device {
        try changing { () throws(JournalError) -> SyncStatus.Device in
            let before = try syncStatus()
            guard let folder = before.folder else {
                throw .usage("this journal has not synced yet: there is no device to forget")
            }
            guard let found = before.devices.first(where: { $0.id == device }) else {
                throw .usage(
                    "no device \(device.uuidString) syncs through \(folder) (journal sync --status lists them)")
            }
            guard !found.isThisJournal else {
                throw .usage("\(device.uuidString) is this journal's own device: forget it on the other journals")
            }
            try main.syncTransaction { db in try SyncLedger.forget(device, at: SyncTaken.now(), in: db) }
            return try syncStatus().devices.first { $0.id == device } ?? found
        }
    }

    /// The keys lines are sealed with in `place`, by device: none for a journal in plain text,
    /// whose folder must hold no sealed device; for an encrypted one, the key of every device
    /// whose key is there, unwrapped under `passphrase` unless kept from an earlier sync. Every
    /// key is unwrapped before anything is written, so a wrong passphrase writes nothing.
    private func keys(for place: SyncFolder, passphrase: Passphrase?) throws(JournalError) -> [UUID: SyncSealing]? {
        let devices = place.devices()
        // A journal encrypted or decrypted since it last synced through this folder: the way on.
        let converted = try main.read { db in
            try SyncLedger.isStarted(in: db) && SyncLedger.info(SyncLedger.Key.folder, in: db) == place.url.path
                && SyncLedger.info(SyncLedger.Key.encrypted, in: db).map { $0 != (isEncrypted ? "1" : "0") } == true
        }
        guard isEncrypted else {
            guard !devices.contains(where: { place.kind(of: $0) == .sealed }) else {
                throw .usage(
                    "\(place.url.path) is the folder of encrypted journals: a journal in plain text can't sync through it"
                        + (converted
                            ? " (this one was decrypted since it last synced through it: sync it through a new folder, and decrypt the other journals and sync them through that one too)"
                            : "") + " (nothing was written)")
            }
            return nil
        }
        guard !devices.contains(where: { place.kind(of: $0) == .plain }) else {
            throw .usage(
                "\(place.url.path) holds the files of journals in plain text: an encrypted journal can't sync through it, or its words would be there in the clear"
                    + (converted
                        ? " (this one was encrypted since it last synced through it: sync it through a new folder, and encrypt the other journals and sync them through that one too)"
                        : "") + " (nothing was written)")
        }
        let kept = try main.read { db in try SyncLedger.keptKeys(in: db) }
        var keys: [UUID: SyncSealing] = [:]
        var unwrapped: [(device: UUID, kept: String)] = []
        for device in devices {
            // A device whose key has not arrived yet: its files wait for it.
            guard let file = try JournalKeyFile.read(at: place.keyURL(of: device)) else { continue }
            if let key = kept[device].flatMap({ Self.keptKey($0, for: file.journal) }) {
                keys[device] = SyncSealing(key: key)
                continue
            }
            guard let passphrase else {
                throw JournalError(
                    .passphraseRequired,
                    "another journal's key is unwrapped once with the journal's passphrase: none was given")
            }
            let key: GuardedBytes
            do {
                key = try file.unwrap(passphrase)
            } catch  where error.kind == .wrongPassphrase {
                throw JournalError(
                    .wrongPassphrase,
                    "\(place.keyURL(of: device).path) was wrapped under another passphrase than this journal's: nothing was written"
                )
            }
            keys[device] = SyncSealing(key: key)
            unwrapped.append((device, Self.keptForm(key, of: file)))
        }
        if !unwrapped.isEmpty {
            try main.syncTransaction { db in
                for (device, text) in unwrapped {
                    try SyncLedger.setInfo(SyncLedger.Key.deviceKeyPrefix + device.uuidString, text, in: db)
                }
            }
        }
        return keys
    }

    /// The key kept as `text` (``keptForm(_:of:)``), if it is the key of the key file `journal`.
    private static func keptKey(_ text: String, for journal: UUID) -> GuardedBytes? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0] == journal.uuidString, let bytes = Data(base64Encoded: String(parts[1])),
            bytes.count == JournalKeyFile.keyBytes
        else { return nil }
        return bytes.withUnsafeBytes { try? GuardedBytes(copying: $0) }
    }

    /// How the journal keeps `key`, the key of the key file `file`: `<file's UUID>:<base64>`.
    private static func keptForm(_ key: GuardedBytes, of file: JournalKeyFile) -> String {
        "\(file.journal.uuidString):\(Data(bytes: key.pointer, count: key.count).base64EncodedString())"
    }

    /// This device's key in `place`: the one kept, else one drawn, wrapped under `passphrase` (the
    /// journal's own, checked against its key file) at the cost of the journal's key file, and put
    /// beside the device's files, unless an interrupted sync put one there already.
    func ownKey(
        of device: UUID, in place: SyncFolder, keys: inout [UUID: SyncSealing], passphrase: Passphrase?
    ) throws(JournalError) -> SyncSealing {
        if let key = keys[device] { return key }
        guard let passphrase else {
            throw JournalError(
                .passphraseRequired, "this journal's key in the folder is wrapped under its passphrase: none was given")
        }
        guard let own = try JournalKeyFile.read(at: directory.keyFileURL) else {
            throw .store("the journal's key file is missing", file: directory.keyFileURL.path)
        }
        _ = try own.unwrap(passphrase)
        let cost = try KeyDerivationCost(passes: own.derivation.passes, memoryBytes: own.derivation.memoryBytes)
        let drawn = try GuardedBytes.random(count: JournalKeyFile.keyBytes)
        let wrapped = try JournalKeyFile.wrapping(drawn, passphrase: passphrase, cost: cost)
        try place.writeKeyUnlessPresent(wrapped, of: device)
        guard let present = try JournalKeyFile.read(at: place.keyURL(of: device)) else {
            throw .store("\(place.keyURL(of: device).path) vanished as it was written")
        }
        let key = present.journal == wrapped.journal ? drawn : try present.unwrap(passphrase)
        try main.syncTransaction { db in
            try SyncLedger.setInfo(
                SyncLedger.Key.deviceKeyPrefix + device.uuidString, Self.keptForm(key, of: present), in: db)
        }
        keys[device] = SyncSealing(key: key)
        return SyncSealing(key: key)
    }

    /// Checks that `place` holds every file this journal's device has written: a folder that
    /// doesn't (another folder, or one that lost them) would leave the journals that join it
    /// later without this journal's changes.
    private func checkHoldsOwnFiles(_ place: SyncFolder) throws(JournalError) {
        let known = try main.read { db -> (device: UUID, written: Int, folder: String?)? in
            guard try SyncLedger.isStarted(in: db),
                let device = try SyncLedger.info(SyncLedger.Key.device, in: db).flatMap(UUID.init(uuidString:)),
                try SyncLedger.info(SyncLedger.Key.claim, in: db) == ownClaim
            else { return nil }
            let next = try SyncLedger.nextFile(in: db)
            return (device, next - 1, try SyncLedger.info(SyncLedger.Key.folder, in: db))
        }
        guard let known, known.written > 0 else { return }
        let held = place.lastFile(of: known.device)
        guard held < known.written else { return }
        let missing = place.fileURL(of: known.device, number: held + 1).path
        let before = known.folder.map { $0 == place.url.path ? "" : " (it synced through \($0))" } ?? ""
        throw .usage(
            "\(missing) is missing: the folder lacks this journal's files\(before), and journals that join it would never get its changes. Copy the journal-sync folder of the folder it synced through into \(place.url.path), or sync through that folder (nothing was written)"
        )
    }

    /// The identity of the journal's file, which a copy of the journal doesn't share.
    var ownClaim: String {
        main.fileClaim
    }

    /// The folder given, or the one remembered.
    private func syncFolder(given folder: URL?) throws(JournalError) -> SyncFolder {
        if let folder { return SyncFolder(url: folder.standardizedFileURL.absoluteURL) }
        let remembered = try main.read { db in
            try SyncLedger.isStarted(in: db) ? try SyncLedger.info(SyncLedger.Key.folder, in: db) : nil
        }
        guard let remembered else {
            throw .usage("this journal has not synced yet: give the folder to sync through (journal sync FOLDER)")
        }
        return SyncFolder(url: URL(fileURLWithPath: remembered))
    }

    /// Makes a version of every entry changed here since the last sync, and writes the versions
    /// not yet in the folder into this device's next file.
    private func sendChanges(
        through place: SyncFolder, keys: inout [UUID: SyncSealing]?, passphrase: Passphrase?,
        _ hooks: MainStore.WriteHooks
    ) throws(JournalError) -> SyncReport {
        let claim = ownClaim
        let unchanged = try main.read { db in
            try SyncLedger.unchangedDevice(claim: claim, folder: place.url.path, encrypted: isEncrypted, in: db)
        }
        // Nothing to write: the store's writer is not even opened (opening it commits).
        if let unchanged { return SyncReport(folder: place.url.path, device: unchanged) }
        var report = try main.syncTransaction { db in
            if try !SyncLedger.isStarted(in: db) {
                try SyncLedger.noteFile(claim, in: db)
                try SyncLedger.start(in: db)
            } else {
                try SyncLedger.startCompaction(in: db)
                try SyncLedger.startHeldStates(in: db)
            }
            try SyncLedger.setInfo(SyncLedger.Key.folder, place.url.path, in: db)
            try SyncLedger.setInfo(SyncLedger.Key.encrypted, isEncrypted ? "1" : "0", in: db)
            var report = SyncReport(folder: place.url.path, device: UUID())
            if let device = try SyncLedger.info(SyncLedger.Key.device, in: db).flatMap(UUID.init(uuidString:)),
                try SyncLedger.info(SyncLedger.Key.claim, in: db) == claim
            {
                report.device = device
            } else {
                // A first sync, or a journal copied: a device of its own, from its first file.
                let previous = try SyncLedger.info(SyncLedger.Key.device, in: db).flatMap(UUID.init(uuidString:))
                report.newDevice = previous != nil
                if let previous {
                    try SyncLedger.setInfo(SyncLedger.Key.namesByDevice, "1", in: db)
                    // In a folder without the files of the device it was (a copy starting a
                    // folder of its own, a journal whose file a conversion replaced), what the
                    // journal holds reaches the folder only if it is sent again.
                    let written = try SyncLedger.nextFile(in: db) - 1
                    if place.lastFile(of: previous) < written { try SyncLedger.sendEverythingAgain(in: db) }
                }
                try SyncLedger.setInfo(SyncLedger.Key.device, report.device.uuidString, in: db)
                try SyncLedger.setInfo(SyncLedger.Key.claim, claim, in: db)
                try SyncLedger.startFiles(in: db)
            }
            var intake = try Intake(main, hooks, versioned: nil, in: db)
            var unsettled: [String] = []
            for n in try SyncLedger.pending(in: db) {
                if let uri = try makeVersion(of: n, device: report.device, clock: &intake.clock, in: db),
                    try SyncLedger.heads(of: uri, in: db).count > 1
                {
                    unsettled.append(uri)
                }
            }
            // A version made here beside another head (an edit or a delete of an entry in
            // conflict) is settled as the other journals will settle it when they take it in.
            var madeCopies: Set<String> = []
            for uri in unsettled {
                try settle(uri, into: &intake, report: &report, madeCopies: &madeCopies, in: db)
            }
            (report.added, report.changed, report.deleted) = (0, 0, 0)
            report.conflicts = madeCopies.count
            try intake.writer.finish()
            try SyncLedger.clearPending(in: db)
            try SyncLedger.setInfo(SyncLedger.Key.clock, intake.clock.stored, in: db)
            return report
        }
        report.sent = try writeOutbox(to: place, as: report.device, keys: &keys, passphrase: passphrase)
        return report
    }

    /// Writes the lines made here and not yet in the folder into this device's next file;
    /// returns how many versions it wrote.
    func writeOutbox(
        to place: SyncFolder, as device: UUID, keys: inout [UUID: SyncSealing]?, passphrase: Passphrase?
    ) throws(JournalError) -> Int {
        let (outbox, number) = try main.read { db in (try SyncLedger.outbox(in: db), try SyncLedger.nextFile(in: db)) }
        guard !outbox.lines.isEmpty else { return 0 }
        var sealing: SyncSealing?
        if keys != nil { sealing = try ownKey(of: device, in: place, keys: &keys!, passphrase: passphrase) }
        try place.write(outbox.lines, as: device, SyncFolder.File(number: number), sealedBy: sealing)
        let records = outbox.lines.compactMap { line -> SyncRecord? in
            guard case .record(let record) = line else { return nil }
            return record
        }
        try main.syncTransaction { db in
            try SyncLedger.removeFromOutbox(through: outbox.through, in: db)
            try SyncLedger.wroteFile(
                number, lines: outbox.lines.count, floors: outbox.lines.count - records.count,
                last: records.last?.version, in: db)
        }
        return records.count
    }

    /// A version of entry `n` as it is now, unless sync holds that state already; returns the
    /// entry's URI when it made one from a version sync held (which may stand beside other
    /// heads: an entry new here has no other).
    private func makeVersion(of n: Int64, device: UUID, clock: inout SyncClock, in db: Database) throws -> String? {
        let held = try SyncLedger.held(n: n, in: db)
        let state = try SyncLedger.state(of: n, in: db)
        guard let state else {
            // Deleted here: a version that deletes it, if sync knew it.
            guard let held else { return nil }
            let record = SyncRecord(
                entry: held.uri, version: clock.next(for: device).description, base: held.head,
                merged: held.merged.isEmpty ? nil : held.merged, state: nil)
            try SyncLedger.add(record, mayBeAParent: false, in: db)
            try SyncLedger.hold(SyncLedger.Held(uri: held.uri, n: nil, head: record.version, digest: nil), in: db)
            try SyncLedger.addToOutbox(.record(record), in: db)
            return held.uri
        }
        let digest = state.digest
        if let held, held.digest == digest { return nil }
        let uri = try held?.uri ?? syncURI(ofNew: n, device: device, in: db)
        let merged = held?.merged ?? []
        let record = SyncRecord(
            entry: uri, version: clock.next(for: device).description, base: held?.head,
            merged: merged.isEmpty ? nil : merged, state: state)
        try SyncLedger.add(record, mayBeAParent: false, in: db)
        try SyncLedger.hold(SyncLedger.Held(uri: uri, n: n, head: record.version, digest: digest), in: db)
        try SyncLedger.addToOutbox(.record(record), in: db)
        return held == nil ? nil : uri
    }

    /// The URI sync gives entry `n`, which it did not hold: the URI the journal shows it by,
    /// unless the journal is a copy and made the entry after its first sync, when the journal it
    /// was copied from may have made another entry of that number (`SyncLedger.Key.namesByDevice`).
    private func syncURI(ofNew n: Int64, device: UUID, in db: Database) throws -> String {
        let firstSyncedThrough = try SyncLedger.info(SyncLedger.Key.firstSyncedThrough, in: db).flatMap(Int64.init)
        if try SyncLedger.info(SyncLedger.Key.namesByDevice, in: db) != nil, let firstSyncedThrough,
            n > firstSyncedThrough
        {
            return EntryID(storeID: device, number: n).uri
        }
        return EntryID(storeID: storeID, number: n).uri
    }

    /// Takes in every other device's records not taken in yet, a file at a time, each in one
    /// transaction with the entries it changes.
    private func takeIn(
        from place: SyncFolder, keys: [UUID: SyncSealing]?, _ hooks: MainStore.WriteHooks,
        into report: inout SyncReport, progress: ProgressHandler?
    ) throws(JournalError) {
        var madeCopies: Set<String> = []
        defer { report.conflicts += madeCopies.count }
        // Each other device's files to read: from the last one begun, unless it was taken in
        // whole and not written again since.
        var toRead: [(device: UUID, start: SyncLedger.Position, files: [SyncFolder.File])] = []
        for device in place.devices() where device != report.device {
            if let keys, keys[device] == nil {
                // An encrypted device whose key has not arrived: its files wait for it.
                if !place.files(of: device).isEmpty { report.waiting.append(place.keyURL(of: device).path) }
                continue
            }
            let start = try main.read { db in try SyncLedger.position(of: device, in: db) }
            // From the first file not taken in whole; a snapshot stands for the files before it.
            let files = place.files(of: device).filter { file in
                file.number > start.file || file.number == start.file && place.size(of: device, file) != start.bytes
            }
            if !files.isEmpty { toRead.append((device, start, files)) }
        }
        let total = toRead.reduce(0) { sum, device in
            device.files.reduce(sum) { $0 + (place.size(of: device.device, $1) ?? 0) }
        }
        var done = 0
        var versioned = try main.read { db in try SyncLedger.holdsNoVersion(in: db) } ? Set<String>() : nil
        for (device, start, files) in toRead {
            for file in files {
                let skip = file.number == start.file ? start.records : 0
                let reading = try main.syncTransaction { db in
                    try SyncLedger.takingIn(in: db) {
                        var intake = try Intake(main, hooks, versioned: versioned, in: db)
                        var (last, read): (String?, Int) = (nil, 0)
                        // The lines are decoded, and their records made ready, on a thread of their
                        // own while those before are taken in.
                        let reading = try place.read(
                            device, file, sealedBy: keys?[device],
                            preparing: { line -> (version: SyncVersion?, state: PreparedState?) in
                                guard let record = line.record else { return (nil, nil) }
                                let state = record.state.map { PreparedState($0, madeFrom: record.parents) }
                                return (SyncVersion(record.version), state)
                            }
                        ) { lines, bytes in
                            for (line, ready) in lines.dropFirst(max(skip - read, 0)) {
                                switch line {
                                case .record(let record):
                                    try take(
                                        record, version: ready.version, prepared: ready.state, into: &intake,
                                        report: &report, madeCopies: &madeCopies, in: db)
                                    last = record.version
                                case .floor(let floor):
                                    try take(
                                        floor, own: report.device, into: &intake, report: &report,
                                        madeCopies: &madeCopies, in: db)
                                }
                            }
                            read += lines.count
                            progress?(JournalProgress(phase: .syncing, done: done + bytes, total: total))
                        }
                        try intake.writer.finish()
                        try SyncLedger.setInfo(SyncLedger.Key.clock, intake.clock.stored, in: db)
                        try SyncLedger.setPosition(
                            of: device,
                            at: (
                                file.number, max(reading.count, skip),
                                file.number == start.file ? max(reading.bytes, start.bytes) : reading.bytes
                            ),
                            last: last, in: db)
                        versioned = intake.versioned
                        return reading
                    }
                }
                done += place.size(of: device, file) ?? reading.bytes
                progress?(JournalProgress(phase: .syncing, done: min(done, total), total: total))
                let path = place.fileURL(of: device, file).path
                switch reading.end {
                case .whole: continue
                case .cutShort: report.waiting.append(path)
                case .damaged(let line): report.damaged.append("\(path):\(line)")
                }
                break
            }
        }
    }

    /// What taking in one file carries from record to record.
    struct Intake {
        var clock: SyncClock
        var writer: SyncedEntryWriter
        /// Whether compaction has removed versions here, which a record may be one of.
        var hasFloors: Bool
        /// The entries the ledger holds versions of, when it held none as the take-in began (a
        /// journal new to the folder): no other entry's versions need looking up. Nil when any
        /// entry's may be there.
        var versioned: Set<String>?

        /// What taking in starts from in a transaction of `main`'s, `versioned` as the last
        /// transaction left it.
        init(_ main: MainStore, _ hooks: MainStore.WriteHooks, versioned: Set<String>?, in db: Database) throws {
            clock = SyncClock(stored: try SyncLedger.info(SyncLedger.Key.clock, in: db))
            writer = try SyncedEntryWriter(main, hooks, in: db)
            hasFloors = try SyncLedger.hasFloors(in: db)
            self.versioned = versioned
        }

        /// How many versions of `record`'s entry the ledger holds, and whether its version is one.
        func known(_ record: SyncRecord, in db: Database) throws -> (count: Int, includes: Bool) {
            if let versioned, !versioned.contains(record.entry) { return (0, false) }
            return try SyncLedger.versions(of: record.entry, including: record.version, in: db)
        }

        /// Adds `record`'s version to the ledger (``SyncLedger/add(_:prepared:heldByEntry:mayBeAParent:in:)``).
        mutating func add(
            _ record: SyncRecord, prepared: PreparedState? = nil, heldByEntry: Bool = false, mayBeAParent: Bool = true,
            in db: Database
        ) throws {
            try SyncLedger.add(
                record, prepared: prepared, heldByEntry: heldByEntry, mayBeAParent: mayBeAParent, in: db)
            versioned?.insert(record.entry)
        }
    }

    /// Takes in one record (its version read, its state `prepared`): adds its version, and
    /// writes the entry as its heads now make it.
    private func take(
        _ record: SyncRecord, version: SyncVersion?, prepared: PreparedState?, into intake: inout Intake,
        report: inout SyncReport, madeCopies: inout Set<String>, in db: Database
    ) throws {
        guard let version else { return }
        if intake.hasFloors, try SyncLedger.isRemoved(record, in: db) { return }
        let known = try intake.known(record, in: db)
        guard !known.includes else { return }
        intake.clock.observe(version)
        report.received += 1
        // The first version known of an entry is the entry (the common case: entries new to
        // this journal), which then holds its state for the ledger.
        let first = known.count == 0 && record.parents.isEmpty
        try intake.add(
            record, prepared: prepared, heldByEntry: first && prepared?.entryHoldsIt == true,
            mayBeAParent: known.count > 0, in: db)
        if first {
            let first = SyncMerge.Resolution(winner: SyncMerge.Head(version: version, state: record.state))
            try hold(record.entry, as: first, prepared: prepared, held: nil, intake: &intake, report: &report, in: db)
            return
        }
        try settle(record.entry, into: &intake, report: &report, madeCopies: &madeCopies, in: db)
    }

    /// Removes the versions `floor` names (compaction on another device removed them), and
    /// settles the entry again when that changes what its heads make it.
    private func take(
        _ floor: SyncFloor, own: UUID, into intake: inout Intake, report: inout SyncReport,
        madeCopies: inout Set<String>, in db: Database
    ) throws {
        var removal = SyncLedger.Removal()
        for version in floor.through.compactMap(SyncVersion.init) {
            let removed = try SyncLedger.removeVersions(of: floor.entry, through: version, own: own, in: db)
            removal.own += removed.own
            removal.head = removal.head || removed.head
        }
        intake.hasFloors = true
        if removal.own > 0 { try SyncLedger.removedOwnLines(removal.own, in: db) }
        if try removal.head || SyncLedger.heads(of: floor.entry, in: db).count > 1 {
            try settle(floor.entry, into: &intake, report: &report, madeCopies: &madeCopies, in: db)
        }
    }

    /// Makes the entry `uri`, and its copies, what the heads of its versions now make them.
    func settle(
        _ uri: String, into intake: inout Intake, report: inout SyncReport, madeCopies: inout Set<String>,
        in db: Database
    ) throws {
        guard let resolved = try Self.resolution(of: uri, in: db) else { return }
        let held = try SyncLedger.held(uri: uri, in: db)
        if held?.head != resolved.winner.version.description || held?.merged != resolved.merged.map(\.description)
            || held?.digest != resolved.winner.state?.digest
        {
            try hold(uri, as: resolved, held: held, intake: &intake, report: &report, in: db)
        }
        try keepCopies(of: uri, resolved.copies, intake: &intake, report: &report, madeCopies: &madeCopies, in: db)
    }

    /// What the heads of the entry `uri`'s versions make it (nil when none is known).
    static func resolution(of uri: String, in db: Database) throws -> SyncMerge.Resolution? {
        try SyncMerge.resolve(
            uri, heads: try SyncLedger.heads(of: uri, in: db).map(SyncMerge.Head.init),
            ancestor: { one, other in try SyncLedger.commonAncestor(of: uri, one, other, in: db) })
    }

    /// Makes the copies of `entry`'s losing heads what `copies` says: a copy made of a head that
    /// lost no more (it won, or a later version was made from it) is unmade while it is as made,
    /// so that the copies follow from the versions known, not from the order they came in.
    private func keepCopies(
        of entry: String, _ copies: [SyncMerge.Copy], intake: inout Intake, report: inout SyncReport,
        madeCopies: inout Set<String>, in db: Database
    ) throws {
        let wanted = Set(copies.map(\.entry))
        for made in try SyncLedger.copies(of: entry, in: db) where !wanted.contains(made.copy) {
            try SyncLedger.removeCopy(made.copy, in: db)
            guard let held = try SyncLedger.held(uri: made.copy, in: db), held.head == made.version else { continue }
            if let n = held.n { try intake.writer.delete(n) }
            try SyncLedger.forget(made.copy, in: db)
            madeCopies.remove(made.copy)
        }
        for copy in copies where try SyncLedger.held(uri: copy.entry, in: db) == nil {
            let version = copy.version.description
            let record = SyncRecord(entry: copy.entry, version: version, base: nil, state: copy.state)
            // A copy changed on every device and compacted since: its versions arrive as any
            // entry's do, the one it was made as removed.
            if intake.hasFloors, try SyncLedger.isRemoved(record, in: db) { continue }
            try intake.add(record, in: db)
            let made = SyncMerge.Resolution(winner: SyncMerge.Head(version: copy.version, state: copy.state))
            try hold(copy.entry, as: made, held: nil, intake: &intake, report: &report, in: db)
            try SyncLedger.addCopy(copy.entry, of: entry, version: version, in: db)
            madeCopies.insert(copy.entry)
        }
    }

    /// Makes the entry `uri` what `resolution`'s winner says (its state `prepared`, when made
    /// ahead), here.
    private func hold(
        _ uri: String, as resolution: SyncMerge.Resolution, prepared: PreparedState? = nil, held: SyncLedger.Held?,
        intake: inout Intake, report: inout SyncReport, in db: Database
    ) throws {
        let (head, merged) = (resolution.winner.version.description, resolution.merged.map(\.description))
        guard let state = resolution.winner.state else {
            if let n = held?.n {
                try intake.writer.delete(n)
                report.deleted += 1
            }
            try SyncLedger.hold(SyncLedger.Held(uri: uri, n: nil, head: head, merged: merged, digest: nil), in: db)
            return
        }
        let n = try intake.writer.write(prepared?.entry ?? PreparedEntry(synced: state), into: held?.n)
        let digest = prepared?.digest ?? state.digest
        // An entry that held this state already (the same edit made on two devices) is rewritten,
        // so that the state its head left to it is written out, but is not reported changed.
        if held?.n == nil {
            report.added += 1
        } else if held?.digest != digest {
            report.changed += 1
        }
        try SyncLedger.hold(SyncLedger.Held(uri: uri, n: n, head: head, merged: merged, digest: digest), in: db)
    }
}
