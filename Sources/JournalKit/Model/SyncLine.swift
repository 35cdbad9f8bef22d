import Foundation

/// What a device's file holds, a line each (``SyncLines``): a version of an entry, or the
/// versions of an entry compaction removed.
package enum SyncLine: Codable, Equatable, Sendable {
    case record(SyncRecord)
    case floor(SyncFloor)

    package init(from decoder: Decoder) throws {
        let keys = try decoder.container(keyedBy: SyncFloor.CodingKeys.self)
        self = keys.contains(.through) ? .floor(try SyncFloor(from: decoder)) : .record(try SyncRecord(from: decoder))
    }

    package func encode(to encoder: Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .floor(let floor): try floor.encode(to: encoder)
        }
    }

    /// The record the line is, if it is one.
    var record: SyncRecord? {
        if case .record(let record) = self { record } else { nil }
    }

    /// Whether the line holds what a device writes.
    var isWellFormed: Bool {
        switch self {
        case .record(let record): record.isWellFormed
        case .floor(let floor): floor.isWellFormed
        }
    }
}

/// Versions of one entry that compaction removed: for each version named, that version and
/// every earlier one its device made of the entry (``SyncVersion``'s order). Every device drops
/// them, and passes them over when a file still holding one is read, so that a device starting
/// from a snapshot and one that took in every file hold the same versions.
package struct SyncFloor: Codable, Equatable, Sendable {
    var entry: String
    var through: [String]

    enum CodingKeys: String, CodingKey {
        case entry, through
    }

    var isWellFormed: Bool {
        EntryID(writtenURI: entry) != nil && !through.isEmpty && through.allSatisfy { SyncVersion($0) != nil }
    }
}

/// How far a device has taken in the others' files, as it publishes it beside its own
/// (`taken.jsonl`): the last version it took in from each other device, and the last version
/// it wrote. A version may be compacted away only once every device has taken in a version
/// made from it (<doc:Syncing>), every device that said so within ``waitedFor``.
struct SyncTaken: Codable, Equatable, Sendable {
    /// The last version taken in from each other device (the version names its device).
    var taken: [String]
    /// The last version this device wrote into its files; nil before it wrote one.
    var written: String?
    /// When the device said it, in milliseconds since 1970 by its clock; said again at a sync
    /// once ``saidAgainAfter`` has passed, though nothing changed.
    var at: Int64?

    /// How long a device that has not said how far it has taken in is waited for: one that has
    /// not synced for longer (a journal deleted, a machine gone) holds compaction back no more.
    static let waitedFor: Int64 = 30 * 24 * 3_600_000
    static let saidAgainAfter: Int64 = 24 * 3_600_000

    /// Whether compaction waits for a device that said `said` (nil: nothing yet), at `now`: not
    /// once it has been silent for ``waitedFor``, nor when it was forgotten here at `forgotten`
    /// and has not said anything since.
    static func waits(for said: SyncTaken?, forgotten: Int64?, now: Int64) -> Bool {
        if let forgotten, (said?.at ?? .min) <= forgotten { return false }
        if let at = said?.at, now - at > waitedFor { return false }
        return true
    }

    /// Milliseconds since 1970 now, as ``at`` counts them.
    static func now(_ date: Date = Date()) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    /// The last version taken in from `device`, by the device that wrote this.
    func last(of device: UUID) -> SyncVersion? {
        taken.lazy.compactMap(SyncVersion.init).first { $0.device == device }
    }

    var isWellFormed: Bool {
        taken.allSatisfy { SyncVersion($0) != nil } && (written.map { SyncVersion($0) != nil } ?? true)
    }
}
