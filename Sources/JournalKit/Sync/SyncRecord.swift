import Crypto
import Foundation
import JournalText

/// What sync carries of an entry: everything a user gives it (the text as written, its date,
/// the tags given besides those in the text, its star). Tags written in the text, and the
/// canonical text, follow from the text on every device.
struct SyncedState: Codable, Equatable, Sendable {
    /// Microseconds since 1970, UTC.
    var date: Int64
    var text: String
    /// The given tags, by name.
    var tags: [Tag]
    var starred: Bool

    init(date: Int64, text: String, tags: [Tag], starred: Bool) {
        self.date = date
        self.text = text
        self.tags = tags.sorted { $0.name < $1.name }
        self.starred = starred
    }

    /// A digest of the state, to tell whether an entry changed since sync last wrote or read it.
    var digest: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Data(SHA256.hash(data: (try? encoder.encode(self)) ?? Data()))
    }
}

/// One version of one entry, as a device writes it into the folder: the entry's URI (its
/// identity on every device), the version, the version it was made from (none for the entry's
/// first), and the entry's state then, or nothing when the version deletes it.
struct SyncRecord: Codable, Equatable, Sendable {
    var entry: String
    var version: String
    var base: String?
    var state: SyncedState?

    /// A line of a device's file: a checksum of the record's JSON, a space, the JSON, a newline.
    /// The checksum tells a line damaged in the folder from a whole one; a line without its
    /// newline is one still arriving.
    func line() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)) ?? Data()
        return Data((Self.checksum(json) + " ").utf8) + json + Data([0x0A])
    }

    private static func checksum(_ json: Data) -> String {
        SHA256.hash(data: json).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// What a file's bytes hold: the whole records, in order, and how the bytes end.
    struct Reading {
        var records: [SyncRecord] = []
        var end: End = .whole
        enum End: Equatable {
            /// Every line was whole.
            case whole
            /// The last line has no newline yet: the file is still arriving, or was cut short.
            case cutShort
            /// Line `line` (from 1) is damaged: nothing from it on is taken.
            case damaged(line: Int)
        }
    }

    /// Reads a file of records, up to its last whole line or its first damaged one.
    static func records(in data: Data) -> Reading {
        var reading = Reading()
        var start = data.startIndex
        var line = 0
        while start < data.endIndex {
            line += 1
            guard let newline = data[start...].firstIndex(of: 0x0A) else {
                reading.end = .cutShort
                return reading
            }
            let bytes = data[start..<newline]
            start = newline + 1
            guard let space = bytes.firstIndex(of: 0x20),
                let sum = String(data: bytes[..<space], encoding: .utf8),
                sum == checksum(bytes[(space + 1)...]),
                let record = try? JSONDecoder().decode(SyncRecord.self, from: bytes[(space + 1)...]),
                record.isWellFormed
            else {
                reading.end = .damaged(line: line)
                return reading
            }
            reading.records.append(record)
        }
        return reading
    }

    /// Whether the record's fields are what a device writes: an entry URI, versions in their form.
    private var isWellFormed: Bool {
        EntryID(uri: entry) != nil && SyncVersion(version) != nil && (base.map { SyncVersion($0) != nil } ?? true)
    }
}
