import JournalText

/// A device's line (``SyncLine``) read straight from its JSON's bytes, for the lines devices
/// write: a record (`entry`, `version`, `base`, `merged`, `state` with `date`, `starred`,
/// `tags` and `text`) or a floor (`entry`, `through`). A new device takes in every line of every
/// other device's files, as many as the journal has entries.
///
/// Invariant: where the scanner reads a line, it reads what Foundation's `JSONDecoder` reads
/// from it (``SyncLine/init(from:)``); anything it is not sure of (an unknown or repeated field,
/// a number that is not a plain integer, a `null` where a value is required, and what
/// ``JSONByteReader`` leaves) gives nil, and the line goes to `JSONDecoder`. So this path never
/// decides whether a line is taken.
package enum SyncLineScanner {
    /// The line whose JSON is `bytes` as `JSONDecoder` would read it, or nil for `JSONDecoder`
    /// to read.
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> SyncLine? {
        var reader = JSONByteReader(bytes)
        var fields = Fields()
        guard reader.object({ fields.read($0, from: &$1) }), reader.isAtEnd() else { return nil }
        return fields.line
    }

    /// The fields of a line, as read so far.
    private struct Fields {
        /// A bit for each field read, to find one given twice.
        var seen: UInt8 = 0
        var entry: String?
        var version: String?
        var base: String?
        var merged: [String]?
        var state: SyncedState?
        var through: [String]?

        /// Reads the value of field `name`; false when the scanner is not sure of it.
        mutating func read(_ name: String, from reader: inout JSONByteReader) -> Bool {
            let bit: UInt8 =
                switch name {
                case "entry": 1
                case "version": 2
                case "base": 4
                case "merged": 8
                case "state": 16
                case "through": 32
                default: 0
                }
            guard bit != 0, seen & bit == 0 else { return false }
            seen |= bit
            switch bit {
            case 1:
                entry = reader.string()
                return entry != nil
            case 2:
                version = reader.string()
                return version != nil
            case 4: return reader.optionalString().map { base = $0 } != nil
            case 8: return reader.array { $0.string() }.map { merged = $0 } != nil
            case 16:
                if reader.literal("null") { return true }
                state = Self.state(&reader)
                return state != nil
            default:
                through = reader.array { $0.string() } ?? nil
                return through != nil
            }
        }

        /// A floor when the line has `entry` and `through` and nothing else, a record when it
        /// has `entry` and `version` and no `through`.
        var line: SyncLine? {
            guard let entry else { return nil }
            if let through { return seen == 1 | 32 ? .floor(SyncFloor(entry: entry, through: through)) : nil }
            guard let version else { return nil }
            return .record(SyncRecord(entry: entry, version: version, base: base, merged: merged, state: state))
        }

        /// A record's state: every field given once, none `null`.
        private static func state(_ reader: inout JSONByteReader) -> SyncedState? {
            var (date, text, tags, starred): (Int64?, String?, [Tag]?, Bool?)
            let read = reader.object { name, reader in
                switch name {
                case "date" where date == nil:
                    date = reader.integer()
                    return date != nil
                case "text" where text == nil:
                    text = reader.string()
                    return text != nil
                case "starred" where starred == nil:
                    starred = reader.boolean()
                    return starred != nil
                case "tags" where tags == nil:
                    tags = reader.array(tag) ?? nil
                    return tags != nil
                default: return false
                }
            }
            guard read, let date, let text, let tags, let starred else { return nil }
            // As decoded: the tags in the line's order.
            var state = SyncedState(date: date, text: text, tags: [], starred: starred)
            state.tags = tags
            return state
        }

        /// A tag of a state: its name and the form it was written in, each given once.
        private static func tag(_ reader: inout JSONByteReader) -> Tag? {
            var (name, written): (String?, String?)
            let read = reader.object { field, reader in
                switch field {
                case "name" where name == nil:
                    name = reader.string()
                    return name != nil
                case "written" where written == nil:
                    written = reader.string()
                    return written != nil
                default: return false
                }
            }
            guard read, let name, let written else { return nil }
            return Tag(name: name, written: written)
        }
    }
}
