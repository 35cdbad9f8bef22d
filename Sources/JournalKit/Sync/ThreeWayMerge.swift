import JournalText

/// Two edits of one entry made from a common version, merged when they don't overlap, as
/// `diff3` merges two edits of a file: line by line for the text, field by field for the rest.
///
/// Invariant: the result depends only on the three states given, and is nil (no merge) when
/// both edits changed the same lines differently, or inserted different lines at one place;
/// a change made on one side only is kept, and one made alike on both sides is kept once.
enum ThreeWayMerge {
    /// Texts past this many lines on a side are not merged (the line matching costs the product
    /// of two sides' lines): their edits are kept as copies.
    static let maximumLines = 2_000

    /// `ours` and `theirs`, both made from `base`, as one state; nil when they overlap. Where
    /// both changed the date or the star differently, `ours` is kept.
    static func merge(base: SyncedState, ours: SyncedState, theirs: SyncedState) -> SyncedState? {
        guard let text = merge(base: base.text, ours: ours.text, theirs: theirs.text) else { return nil }
        return SyncedState(
            date: ours.date == base.date ? theirs.date : ours.date, text: text,
            tags: mergeTags(base: base.tags, ours: ours.tags, theirs: theirs.tags),
            starred: ours.starred == base.starred ? theirs.starred : ours.starred)
    }

    /// The given tags: those of `base` kept unless a side removed them, and those a side added.
    private static func mergeTags(base: [Tag], ours: [Tag], theirs: [Tag]) -> [Tag] {
        let (baseNames, ourNames, theirNames) = (
            Set(base.map(\.name)), Set(ours.map(\.name)), Set(theirs.map(\.name))
        )
        var kept = ours.filter { theirNames.contains($0.name) || !baseNames.contains($0.name) }
        kept += theirs.filter { !ourNames.contains($0.name) && !baseNames.contains($0.name) }
        return kept
    }

    /// The texts merged line by line; nil when the edits overlap.
    static func merge(base: String, ours: String, theirs: String) -> String? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        let (o, a, b) = (lines(base), lines(ours), lines(theirs))
        guard max(o.count, a.count, b.count) <= maximumLines else { return nil }
        let (inOurs, inTheirs) = (matches(o, a), matches(o, b))
        var merged: [Substring] = []
        var (next, nextOurs, nextTheirs) = (0, 0, 0)
        while true {
            // The next line of the base both sides kept: the edits between are merged as chunks.
            var anchor = next
            while anchor < o.count, inOurs[anchor] == nil || inTheirs[anchor] == nil { anchor += 1 }
            let ourEnd = anchor < o.count ? inOurs[anchor]! : a.count
            let theirEnd = anchor < o.count ? inTheirs[anchor]! : b.count
            let baseChunk = o[next..<anchor]
            let (ourChunk, theirChunk) = (a[nextOurs..<ourEnd], b[nextTheirs..<theirEnd])
            if ourChunk.elementsEqual(baseChunk) || ourChunk.elementsEqual(theirChunk) {
                merged += theirChunk
            } else if theirChunk.elementsEqual(baseChunk) {
                merged += ourChunk
            } else {
                return nil
            }
            guard anchor < o.count else { break }
            merged.append(o[anchor])
            (next, nextOurs, nextTheirs) = (anchor + 1, ourEnd + 1, theirEnd + 1)
        }
        return merged.joined(separator: "\n")
    }

    private static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// For each line of `base`, the line of `other` it matches in a longest common subsequence
    /// of the two, nil when it has none: increasing wherever there is one.
    private static func matches(_ base: [Substring], _ other: [Substring]) -> [Int?] {
        let (n, m) = (base.count, other.count)
        // lengths[i * (m + 1) + j]: the longest common subsequence of base[i...] and other[j...].
        var lengths = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * (m + 1) + j] =
                    base[i] == other[j]
                    ? lengths[(i + 1) * (m + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
            }
        }
        var matched = [Int?](repeating: nil, count: n)
        var (i, j) = (0, 0)
        while i < n, j < m {
            if base[i] == other[j] {
                matched[i] = j
                (i, j) = (i + 1, j + 1)
            } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return matched
    }
}
