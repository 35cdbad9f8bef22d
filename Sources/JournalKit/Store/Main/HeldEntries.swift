import JournalText

/// What a store held at the dates a write looked up, for its duplicate check
/// (``EntryInserter``): each date, or span of dates for a format that writes them to the
/// minute, read once per write, its entries found by the key of their text in one lookup.
/// Keys are compared as their composed forms' bytes (``Fold/composed(_:)``): canonically
/// equivalent texts are one key, as Swift compares strings, without Swift's hashing, which
/// normalizes every non-ASCII string it hashes, again for every lookup of a second import of
/// non-ASCII text.
///
/// Invariant: the texts kept stay under ``maximumBytes`` but for the dates read last (past it,
/// what was kept is dropped and read again when looked up), so that a write's memory is bounded
/// whatever the input.
struct HeldEntries {
    /// A date to the microsecond (`precision` 1), or the span of `precision` microseconds from
    /// `start`.
    struct Dates: Hashable {
        let start: Int64
        let precision: Int64
    }

    /// An entry's star and tags (their names).
    struct Held: Equatable {
        let starred: Bool
        let tags: Set<String>

        /// Whether an entry with this star and these tags would add nothing to one with `other`'s.
        func isWithin(_ other: Held) -> Bool { (!starred || other.starred) && tags.isSubset(of: other.tags) }
    }

    private struct Group {
        var entries: [(text: String, held: Held)]
        /// The entries by the key of their text, once a lookup asked for it.
        var byKey: [CodePointKey: [Held]]?
    }

    static let maximumBytes = 64 << 20
    private var groups: [Dates: Group] = [:]
    private var bytes = 0

    /// Whether the entries of `dates` were read.
    func has(_ dates: Dates) -> Bool { groups[dates] != nil }

    /// Keeps the entries read for `dates`: each text with its star and tags.
    mutating func record(_ dates: Dates, _ entries: [(text: String, held: Held)]) {
        let size = entries.reduce(0) { $0 + $1.text.utf8.count }
        if bytes + size > Self.maximumBytes {
            groups.removeAll()
            bytes = 0
        }
        groups[dates] = Group(entries: entries)
        bytes += size
    }

    /// Whether an entry of `dates` has the text key `key` (`keyOf` of its text) and at least the
    /// star and the tags of `wanted`.
    mutating func holds(_ key: String, as wanted: Held, on dates: Dates, keyedBy keyOf: (String) -> String) -> Bool {
        guard var group = groups[dates] else { return false }
        if group.byKey == nil {
            var byKey: [CodePointKey: [Held]] = [:]
            byKey.reserveCapacity(group.entries.count)
            for entry in group.entries { byKey[Self.key(keyOf(entry.text)), default: []].append(entry.held) }
            group.byKey = byKey
            group.entries = []
            groups[dates] = group
        }
        return group.byKey?[Self.key(key)]?.contains { wanted.isWithin($0) } ?? false
    }

    private static func key(_ text: String) -> CodePointKey { CodePointKey(Fold.composed(text)) }
}
