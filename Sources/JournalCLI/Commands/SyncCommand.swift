import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Exchange changes with other machines through a folder any sync tool carries.",
        discussion: """
            Writes the entries changed here since the last sync into this journal's own files \
            in FOLDER/journal-sync/, and takes in the other journals' files there. FOLDER is \
            any folder Syncthing, Dropbox, rclone, rsync or a git repository carries between \
            machines: each journal writes only files of its own, each whole, so no sync tool \
            ever makes a conflicted copy and a git pull never conflicts. The first sync \
            remembers FOLDER; later, `journal sync` alone uses it. A journal that has never \
            synced, given a folder other journals sync through, takes everything in.

            Every journal that has taken in the same files holds the same entries (text, date, \
            given tags, star, deletions), whatever the order of the syncs. An entry changed on \
            two machines before they synced is merged when the changes don't overlap (different \
            lines, tags, the star); when they do, it keeps the latest change and the other is \
            kept as an entry of its own tagged #conflict (`journal list --tag conflict` finds \
            them), on every machine. An edit beats a delete of the same entry.

            A journal copied (cp -a, a backup restored, a new machine) writes as a device of its \
            own. A file still arriving is taken as far as its records are whole, the rest at a \
            later sync; a damaged record is reported, and nothing from it on is taken.

            Each journal says beside its files how far it has taken in the others' \
            (taken.jsonl). Once every journal has an entry's latest version, the older ones are \
            removed from every journal (an entry changed on two machines too, once every journal \
            has both changes: its #conflict entry stays), and a journal whose files hold mostly removed versions \
            replaces them with a snapshot (NNNNNNNN.snapshot.jsonl) that a journal joining \
            later starts from. A journal that has not synced for 30 days is no longer waited \
            for; `journal sync --forget DEVICE` stops waiting for one at once (a machine retired, \
            a journal deleted). Should it sync again, it is waited for again once it says how \
            far it has taken in (at a sync that changes anything, or a day later), and what it wrote \
            from versions removed meanwhile is kept as #conflict entries: nothing is lost.

            Encrypted journals seal every record under a key of their own, drawn at their first \
            sync and kept beside their files wrapped under the passphrase: another encrypted \
            journal with the same passphrase takes them in, a wrong passphrase is refused. The \
            folder then holds no entry's words, tags or dates in the clear. A plain journal and \
            an encrypted folder, or the reverse, refuse each other.
            """)

    @ParentCommand var journal: JournalCommand
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The folder to sync through (the last one when omitted).", valueName: "FOLDER"))
    var folder: String?

    @Flag(help: "Show the devices the folder holds and what is pending, writing nothing.")
    var status = false

    @Option(
        help: ArgumentHelp(
            "Stop waiting for a device that is gone (its ID, or the start of it, from --status) before compacting; syncs nothing.",
            valueName: "DEVICE"))
    var forget: String?

    func validate() throws {
        if status, folder != nil { throw ValidationError("--status takes no FOLDER: it shows the last sync's") }
        if forget != nil, status || folder != nil {
            throw ValidationError(
                "--forget takes neither FOLDER nor --status: it forgets a device of the last sync's folder")
        }
    }

    func run() throws {
        if status { return try printStatus(self.journal.openJournal().syncStatus()) }
        if let forget { return try forgetDevice(forget) }
        // A journal that is not there yet (a new machine) is made, to take everything in.
        if let folder { try Journal.checkSyncFolder(URL(fileURLWithPath: folder)) }
        let journal = try self.journal.openJournal(create: folder != nil, changing: "sync")
        let (syncing, indexing) = (ProgressBar(label: "taking in"), ProgressBar(label: "indexing"))
        let report = try journal.sync(
            through: folder.map { URL(fileURLWithPath: $0) }, passphrase: JournalCommand.openedPassphrase,
            progress: { progress in
                if progress.phase == .syncing {
                    syncing.update(progress)
                } else {
                    syncing.finish()
                    indexing.update(progress)
                }
            })
        syncing.finish()
        indexing.finish()
        if output.json {
            JSONOutput.print(Self.json(report))
        } else {
            print(Self.summary(report))
            for path in report.waiting {
                let what = path.hasSuffix("/device.key") ? "its device's files wait for it" : "taken as far as whole"
                print("still arriving, \(what): \(path)")
            }
        }
        for place in report.damaged {
            Terminal.standardError.write(
                place.hasSuffix("/taken.jsonl:1")
                    ? "journal: \(place): damaged; nothing is compacted on its word until the journal that wrote it says it again\n"
                    : "journal: \(place): a damaged record; nothing from it on was taken (the device that wrote it has it whole)\n"
            )
        }
        if !report.damaged.isEmpty { throw ExitCode(1) }
    }

    static func summary(_ report: SyncReport) -> String {
        var lines = ["synced through \(report.folder)"]
        if report.newDevice {
            lines.append("this journal was copied since it last synced: it now writes as a device of its own")
        }
        lines.append(
            "sent \(Formatting.count(report.sent, "change", "changes")), received \(Formatting.count(report.received, "change", "changes"))"
                + (report.received > 0
                    ? ": \(Formatting.grouped(report.added)) added, \(Formatting.grouped(report.changed)) changed, \(Formatting.grouped(report.deleted)) deleted"
                    : ""))
        if report.conflicts > 0 {
            lines.append(
                "\(Formatting.count(report.conflicts, "conflicting edit", "conflicting edits")) kept as entries tagged #conflict"
            )
        }
        if let why = report.notCompacted {
            lines.append("not compacted this time (the next sync tries again): \(why)")
        }
        if report.compacted > 0 {
            lines.append(
                "compacted \(Formatting.count(report.compacted, "entry", "entries")): every journal has its latest version, the older ones are removed"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ report: SyncReport) -> JSONValue {
        .object([
            "folder": .string(report.folder), "device": .string(report.device.uuidString),
            "new_device": .bool(report.newDevice), "sent": .integer(report.sent),
            "received": .integer(report.received), "added": .integer(report.added),
            "changed": .integer(report.changed), "deleted": .integer(report.deleted),
            "conflicts": .integer(report.conflicts), "compacted": .integer(report.compacted),
            "not_compacted": report.notCompacted.map(JSONValue.string) ?? .null,
            "waiting": .array(report.waiting.map(JSONValue.string)),
            "damaged": .array(report.damaged.map(JSONValue.string)),
        ])
    }

    /// Forgets the device `named` (a UUID, or the start of one that names one device of the
    /// folder).
    private func forgetDevice(_ named: String) throws {
        let journal = try self.journal.openJournal(changing: "sync --forget")
        let status = try journal.syncStatus()
        guard status.folder != nil else {
            throw ValidationError("this journal has not synced yet: there is no device to forget")
        }
        let devices = status.devices
        let matching =
            UUID(uuidString: named).map { id in devices.filter { $0.id == id } }
            ?? devices.filter { $0.id.uuidString.hasPrefix(named.uppercased()) }
        guard matching.count == 1, let device = matching.first, !named.isEmpty else {
            let listed = matching.map(\.id.uuidString).joined(separator: ", ")
            throw ValidationError(
                matching.isEmpty
                    ? "no device of this journal's folder is \(named) (journal sync --status lists them)"
                    : "\(named) names \(matching.count) devices (\(listed)): give more of it")
        }
        let forgotten = try journal.forgetSyncDevice(device.id)
        if output.json { return JSONOutput.print(Self.json(forgotten)) }
        let said =
            forgotten.lastSaid.map { "it last synced \(ISO8601DateFormatter().string(from: $0))" }
            ?? "it never said how far it had taken in"
        print(
            "compaction here no longer waits for \(forgotten.id.uuidString) (\(said)); it will again once that journal syncs and says how far it has taken in"
        )
    }

    static func json(_ device: SyncStatus.Device) -> JSONValue {
        .object([
            "id": .string(device.id.uuidString), "this_journal": .bool(device.isThisJournal),
            "files": .integer(device.files),
            "last_written": device.lastWritten.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
            "taken_in": .bool(device.isTakenIn),
            "last_said": device.lastSaid.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
            "waited_for": .bool(device.isWaitedFor), "forgotten": .bool(device.isForgotten),
        ])
    }

    private func printStatus(_ status: SyncStatus) throws {
        if output.json {
            JSONOutput.print(
                .object([
                    "folder": status.folder.map(JSONValue.string) ?? .null,
                    "device": status.device.map { .string($0.uuidString) } ?? .null,
                    "pending": .integer(status.pending),
                    "devices": .array(status.devices.map(Self.json)),
                ]))
            return
        }
        guard let folder = status.folder else {
            print("this journal has not synced yet: journal sync FOLDER")
            return
        }
        print("folder   \(folder)")
        print("pending  \(Formatting.count(status.pending, "change", "changes")) to send")
        for device in status.devices {
            let written = device.lastWritten.map { ISO8601DateFormatter().string(from: $0) } ?? "never"
            let name = device.isThisJournal ? "this journal" : device.isTakenIn ? "taken in" : "not all taken in"
            let said = device.lastSaid.map { ", synced \(ISO8601DateFormatter().string(from: $0))" } ?? ""
            let waited =
                device.isForgotten
                ? " (forgotten here: compaction no longer waits for it)"
                : !device.isWaitedFor
                    ? " (not synced for 30 days: compaction no longer waits for it)"
                    : device.lastSaid == nil && !device.isThisJournal
                        ? " (has not said how far it has taken in: compaction waits for it; journal sync --forget if it is gone)"
                        : ""
            print(
                "device   \(device.id.uuidString)  \(Formatting.count(device.files, "file", "files")), last \(written)\(said), \(name)\(waited)"
            )
        }
    }
}
