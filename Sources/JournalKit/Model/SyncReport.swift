import Foundation

/// What one ``Journal/sync(through:passphrase:progress:)-6qhxh`` did.
public struct SyncReport: Sendable, Codable, Equatable {
    /// The folder synced through.
    public var folder: String
    /// This journal's device in the folder.
    public var device: UUID
    /// Whether this journal took a new device identity in this sync: it was copied, restored or
    /// moved to another disk since it last synced, and must not write as the journal it came from.
    public var newDevice = false
    /// Versions of entries changed here, written to the folder.
    public var sent = 0
    /// Versions of entries taken in from other devices' files.
    public var received = 0
    /// Entries those versions added here (copies kept of a conflict among them).
    public var added = 0
    /// Entries those versions changed here (not counting an entry that held what they say).
    public var changed = 0
    /// Entries those versions deleted here.
    public var deleted = 0
    /// Copies kept of edits that lost a conflict, each an entry tagged `conflict`.
    public var conflicts = 0
    /// Entries whose versions every device has passed, all but the latest removed here and
    /// from the folder's snapshots (<doc:Syncing>).
    public var compacted = 0
    /// Why compaction could not finish at this sync (a file of this journal's in the folder
    /// could not be written: a read-only folder, say), nil when it did. The changes were
    /// exchanged all the same; compaction tries again at the next sync.
    public var notCompacted: String?
    /// Files still arriving, or cut short: taken as far as their records are whole, the rest later;
    /// and an encrypted device's key still arriving (`device.key`), whose files wait for it.
    public var waiting: [String] = []
    /// Files with a damaged record (`path:line`): nothing from it on was taken.
    public var damaged: [String] = []

    /// A sync through `folder` as `device` that has done nothing yet.
    public init(folder: String, device: UUID) {
        self.folder = folder
        self.device = device
    }
}

/// Where a journal stands with the folder it syncs through (``Journal/syncStatus()``).
public struct SyncStatus: Sendable, Codable, Equatable {
    /// The folder the journal syncs through, nil before its first sync.
    public var folder: String?
    /// This journal's device, nil before its first sync.
    public var device: UUID?
    /// Entries changed here since the last sync.
    public var pending: Int
    /// Every device whose files the folder holds, this one included.
    public var devices: [Device]

    /// A device of the folder.
    public struct Device: Sendable, Codable, Equatable {
        /// The device's identity, the name of its subfolder.
        public var id: UUID
        /// Whether the device is this journal.
        public var isThisJournal: Bool
        /// Its files in the folder.
        public var files: Int
        /// When it last wrote one.
        public var lastWritten: Date?
        /// Whether this journal took in every record of its files.
        public var isTakenIn: Bool
        /// When the device last said, by its clock, how far it had taken in the others' files (at
        /// its last sync, or a day after); nil when it has not said, or this journal can't read it.
        public var lastSaid: Date?
        /// Whether compaction waits for the device: it has said how far it has taken in within
        /// the last 30 days, or has not said yet, and was not forgotten here since
        /// (<doc:Syncing>).
        public var isWaitedFor = true
        /// Whether this journal was told the device is gone
        /// (``Journal/forgetSyncDevice(_:)``), and it has not synced since.
        public var isForgotten = false
    }
}
