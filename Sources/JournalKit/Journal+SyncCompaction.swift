import Foundation
import GRDB

/// Compaction of the folder a journal syncs through (the rules in <doc:Syncing>): each device
/// says how far it has taken in the others' files (``SyncTaken``); the versions of an entry
/// every device has passed (all but a head every device holds) are removed, on every device,
/// by a floor each device takes in (``SyncFloor``); a device whose files hold mostly removed
/// versions replaces them with a snapshot.
extension Journal {
    /// After a sync has sent and taken in: removes the versions every device has passed, writes
    /// a snapshot when it is worth it, and says how far this device has taken in.
    func compact(
        _ place: SyncFolder, keys: inout [UUID: SyncSealing]?, passphrase: Passphrase?, report: inout SyncReport
    ) throws(JournalError) {
        let device = report.device
        if let taken = try takenByEveryOtherDevice(in: place, keys: keys, device: device, report: &report),
            try removePassedVersions(taken, device: device, report: &report) > 0
        {
            _ = try writeOutbox(to: place, as: device, keys: &keys, passphrase: passphrase)
        }
        try snapshotIfHalfRemoved(place, device: device, sealing: keys?[device])
        try publishTaken(place, device: device, keys: &keys, passphrase: passphrase)
    }

    /// How far every other device of the folder has taken in, as each says: nil when one has
    /// not said (or what it says is still arriving, or damaged, which is reported), or this
    /// journal has not yet taken in every version that one says it wrote (which may have been
    /// made from versions an entry's head was not). A device that last said it longer ago than
    /// ``SyncTaken/waitedFor``, or that was forgotten here and has said nothing since, is not
    /// waited for.
    private func takenByEveryOtherDevice(
        in place: SyncFolder, keys: [UUID: SyncSealing]?, device: UUID, report: inout SyncReport
    ) throws(JournalError) -> [UUID: SyncTaken]? {
        let (last, forgotten) = try main.read { db in
            (try SyncLedger.lastTaken(in: db), try SyncLedger.forgotten(in: db))
        }
        let now = SyncTaken.now()
        var taken: [UUID: SyncTaken] = [:]
        var isComplete = true
        for other in place.devices() where other != device {
            let reading = keys == nil || keys?[other] != nil ? place.taken(by: other, sealedBy: keys?[other]) : nil
            if case .damaged = reading?.end { report.damaged.append("\(place.takenURL(of: other).path):1") }
            let said = reading?.end == .whole ? reading?.values.first : nil
            guard SyncTaken.waits(for: said, forgotten: forgotten[other], now: now) else { continue }
            guard let said else {
                isComplete = false
                continue
            }
            if let written = said.written.flatMap(SyncVersion.init), last[other].map({ $0 < written }) ?? true {
                isComplete = false
            }
            taken[other] = said
        }
        return isComplete ? taken : nil
    }

    /// Removes, from every entry with one head that every device holds, every other version,
    /// and puts the floors that say so in the outbox; returns how many entries it compacted.
    /// What to do is found by reading: a sync that finds nothing to remove writes nothing.
    private func removePassedVersions(
        _ taken: [UUID: SyncTaken], device: UUID, report: inout SyncReport
    ) throws(JournalError) -> Int {
        let plan = try main.read { db in try Self.compactions(taken, device: device, in: db) }
        guard !plan.isEmpty else { return 0 }
        return try main.syncTransaction { db in
            var compacted = 0
            var own = 0
            for compaction in plan {
                switch compaction {
                case .settle(let uri):
                    try SyncLedger.settled(uri, in: db)
                case .sendAgain(let n):
                    try SyncLedger.sendAgain(n, in: db)
                case .remove(let uri, let through):
                    for version in through {
                        own += try SyncLedger.removeVersions(of: uri, through: version, own: device, in: db).own
                    }
                    try SyncLedger.addToOutbox(
                        .floor(SyncFloor(entry: uri, through: through.map(\.description).sorted())), in: db)
                    try SyncLedger.removeCopies(of: uri, in: db)
                    try SyncLedger.settled(uri, in: db)
                    compacted += 1
                }
            }
            if own > 0 { try SyncLedger.removedOwnLines(own, in: db) }
            report.compacted += compacted
            return compacted
        }
    }

    /// What compaction does to one entry.
    private enum Compaction {
        /// Nothing to remove (one version left): the entry is compactable no more until it changes.
        case settle(String)
        /// An entry sent again from here as a version of its own (``settlingHeads(_:device:everyDeviceHolds:in:)``).
        case sendAgain(Int64)
        /// Every version but the winning head removed: each device's versions through its latest.
        case remove(String, through: [SyncVersion])
    }

    /// What compaction does to each entry that may have versions to remove, found by reading.
    private static func compactions(
        _ taken: [UUID: SyncTaken], device: UUID, in db: Database
    ) throws -> [Compaction] {
        var plan: [Compaction] = []
        for uri in try SyncLedger.compactable(in: db) {
            let versions = try SyncLedger.versions(of: uri, in: db)
            guard versions.count > 1 else {
                plan.append(.settle(uri))
                continue
            }
            let heads = versions.filter(\.head).map(\.version)
            let everyDeviceHolds = { (head: SyncVersion) in
                taken.allSatisfy { other, said in
                    other == head.device || said.last(of: head.device).map { $0 >= head } ?? false
                }
            }
            guard heads.allSatisfy(everyDeviceHolds), var winner = heads.first else { continue }
            if heads.count > 1 {
                guard let settling = try settlingHeads(uri, device: device, everyDeviceHolds: everyDeviceHolds, in: db)
                else { continue }
                guard let won = settling.winner else {
                    plan += settling.sendAgain.map(Compaction.sendAgain)
                    continue
                }
                winner = won
            }
            // Every other version is one the winner was made from, or a losing head or one it was
            // made from: a delete, or an edit whose words its copy keeps. Each device's latest
            // of them is its floor.
            var through: [UUID: SyncVersion] = [:]
            for (version, _) in versions where version != winner {
                through[version.device] = max(through[version.device] ?? version, version)
            }
            guard through[winner.device].map({ $0 < winner }) ?? true else { continue }
            plan.append(.remove(uri, through: Array(through.values)))
        }
        return plan
    }

    /// An entry whose heads every device holds, settled here as its heads make it: what must
    /// happen before its other versions can go. Its heads merged into the winner need a version
    /// made from them all; each copy kept of a losing head must be an entry of its own, a
    /// version of its own made, that every device holds, before the losing head can go (while
    /// a copy is as sync made it, a version made from its head would unmake it). The device whose
    /// edit won sends those versions, together, at its next sync (one device, so that the
    /// devices don't make such versions of each other's forever). Returns the entries to send
    /// again from here while there is something to wait for, else the winning head; nil when
    /// the entry is not settled here yet.
    private static func settlingHeads(
        _ uri: String, device: UUID, everyDeviceHolds: (SyncVersion) -> Bool, in db: Database
    ) throws -> (sendAgain: [Int64], winner: SyncVersion?)? {
        guard let resolved = try resolution(of: uri, in: db), let held = try SyncLedger.held(uri: uri, in: db),
            held.head == resolved.winner.version.description, held.merged == resolved.merged.map(\.description)
        else { return nil }
        let sends = resolved.winner.version.device == device
        var sendAgain: [Int64] = []
        var isWaiting = !resolved.merged.isEmpty
        if isWaiting, sends, let n = held.n { sendAgain.append(n) }
        for copy in resolved.copies {
            guard let kept = try SyncLedger.held(uri: copy.entry, in: db), let head = SyncVersion(kept.head) else {
                return nil
            }
            if head == copy.version, let n = kept.n {
                if sends { sendAgain.append(n) }
                isWaiting = true
            } else if !everyDeviceHolds(head) {
                isWaiting = true
            }
        }
        return isWaiting ? (sendAgain, nil) : ([], resolved.winner.version)
    }

    /// Replaces this device's files with a snapshot when it would hold at most half their lines:
    /// the versions still held, in order, and a floor per entry; then removes the files it
    /// stands for. Nothing is replaced unless every line the device wrote reads back whole. The
    /// snapshot's number is taken first, so that a sync interrupted on the way finishes it
    /// before anything else of the device's is read after it.
    private func snapshotIfHalfRemoved(_ place: SyncFolder, device: UUID, sealing: SyncSealing?) throws(JournalError) {
        let (lines, next) = try main.read { db in (try SyncLedger.ownLines(in: db), try SyncLedger.nextFile(in: db)) }
        guard !isEncrypted || sealing != nil else { return }
        guard lines.written != 0, lines.written < 0 || lines.snapshot * 2 <= lines.written else { return }
        let files = place.files(of: device)
        guard files.last?.number == next - 1, let content = try snapshot(of: files, place, device, sealing) else {
            return
        }
        if lines.written < 0 {
            // Files written before their lines were counted: counted now.
            try main.syncTransaction { db in
                try SyncLedger.counted(
                    lines: content.read, floors: content.read - content.records,
                    removed: content.records - content.kept, in: db)
            }
            guard content.lines.count * 2 <= content.read else { return }
        } else {
            guard content.read == lines.written else { return }
        }
        try main.syncTransaction { db in try SyncLedger.reserveSnapshot(next, in: db) }
        try completeSnapshot(next, place, device: device, sealing: sealing, content: content.lines)
    }

    /// The snapshot of `files`: the versions they hold that are not removed, in order, and every
    /// floor; with how many lines and versions the files hold, and how many of those are kept.
    /// Nil unless every file reads whole.
    private func snapshot(
        of files: [SyncFolder.File], _ place: SyncFolder, _ device: UUID, _ sealing: SyncSealing?
    ) throws(JournalError) -> (lines: [SyncLine], read: Int, records: Int, kept: Int)? {
        var lines: [SyncLine] = []
        var (read, records) = (0, 0)
        for file in files {
            let reading = try place.read(device, file, sealedBy: sealing)
            guard reading.end == .whole else { return nil }
            read += reading.values.count
            records += reading.values.count { if case .record = $0 { true } else { false } }
            lines += try main.read { db in
                try reading.values.filter { line in
                    guard case .record(let record) = line else { return false }
                    return try !SyncLedger.isRemoved(record, in: db)
                }
            }
        }
        let kept = lines.count
        lines += try main.read { db in try SyncLedger.floors(in: db) }.map(SyncLine.floor)
        return (lines, read, records, kept)
    }

    /// Finishes the snapshot an interrupted sync began, before anything else is read or written
    /// in `place`: until then its number is missing from the folder, and the journals reading
    /// this one's files wait at it.
    func finishSnapshot(in place: SyncFolder, keys: [UUID: SyncSealing]?) throws(JournalError) {
        let pending = try main.read { db -> (number: Int, device: UUID)? in
            guard try SyncLedger.isStarted(in: db), let number = try SyncLedger.pendingSnapshot(in: db),
                let device = try SyncLedger.info(SyncLedger.Key.device, in: db).flatMap(UUID.init(uuidString:)),
                try SyncLedger.info(SyncLedger.Key.claim, in: db) == ownClaim,
                try SyncLedger.info(SyncLedger.Key.folder, in: db) == place.url.path
            else { return nil }
            return (number, device)
        }
        guard let pending, !isEncrypted || keys?[pending.device] != nil else { return }
        try completeSnapshot(pending.number, place, device: pending.device, sealing: keys?[pending.device])
    }

    /// Writes snapshot `number` (`content`, or what the files before it make, unless a sync
    /// interrupted after writing it left it whole), then removes the files before it.
    private func completeSnapshot(
        _ number: Int, _ place: SyncFolder, device: UUID, sealing: SyncSealing?, content: [SyncLine]? = nil
    ) throws(JournalError) {
        let file = SyncFolder.File(number: number, isSnapshot: true)
        var lines = content
        if lines == nil, let written = try? place.read(device, file, sealedBy: sealing), written.end == .whole,
            !written.values.isEmpty
        {
            lines = written.values
        } else {
            if lines == nil {
                let before = place.files(of: device).filter { $0.number < number }
                guard before.last?.number == number - 1, let made = try snapshot(of: before, place, device, sealing)
                else {
                    throw .store(
                        "the snapshot of this journal's files in \(place.url.path) can't be made: a file before it no longer reads whole",
                        file: place.fileURL(of: device, file).path)
                }
                lines = made.lines
            }
            try place.write(lines!, as: device, file, sealedBy: sealing)
        }
        try place.removeFiles(of: device, before: number)
        let floors = lines!.count { if case .floor = $0 { true } else { false } }
        try main.syncTransaction { db in
            try SyncLedger.wroteSnapshot(number, lines: lines!.count, floors: floors, in: db)
        }
    }

    /// Says, beside this device's files, how far it has taken in the others' and the last
    /// version it wrote, when that changed since it last said, or a day has passed since.
    private func publishTaken(
        _ place: SyncFolder, device: UUID, keys: inout [UUID: SyncSealing]?, passphrase: Passphrase?
    ) throws(JournalError) {
        let (last, written, published, publishedAt) = try main.read { db in
            (
                try SyncLedger.lastTaken(in: db), try SyncLedger.info(SyncLedger.Key.lastWritten, in: db),
                try SyncLedger.info(SyncLedger.Key.takenPublished, in: db),
                Int64(try SyncLedger.info(SyncLedger.Key.takenPublishedAt, in: db) ?? "") ?? 0
            )
        }
        var taken = SyncTaken(
            taken: last.filter { $0.key != device }.values.map(\.description).sorted(), written: written)
        let text = taken.taken.joined(separator: " ") + "|" + (taken.written ?? "")
        let now = SyncTaken.now()
        guard text != published || now - publishedAt > SyncTaken.saidAgainAfter else { return }
        taken.at = now
        var sealing: SyncSealing?
        if keys != nil {
            // A device that has written nothing yet draws its key only when it can.
            guard keys?[device] != nil || passphrase != nil else { return }
            sealing = try ownKey(of: device, in: place, keys: &keys!, passphrase: passphrase)
        }
        try place.writeTaken(taken, of: device, sealedBy: sealing)
        try main.syncTransaction { db in
            try SyncLedger.setInfo(SyncLedger.Key.takenPublished, text, in: db)
            try SyncLedger.setInfo(SyncLedger.Key.takenPublishedAt, String(now), in: db)
        }
    }
}
