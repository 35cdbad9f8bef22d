import JournalText
import Testing

@testable import JournalKit

/// Edits that don't overlap merge, as `diff3` merges them; edits that do, don't.
@Suite struct ThreeWayMergeTests {
    private static let base = "first line\nsecond line\nthird line\nfourth line"

    @Test(arguments: [
        // One side edits: its text.
        (
            "first line\nsecond line, edited\nthird line\nfourth line", base,
            "first line\nsecond line, edited\nthird line\nfourth line"
        ),
        // Different lines: both edits.
        (
            "first line, ours\nsecond line\nthird line\nfourth line",
            "first line\nsecond line\nthird line\nfourth line, theirs",
            "first line, ours\nsecond line\nthird line\nfourth line, theirs"
        ),
        // A line removed on one side, another changed on the other.
        (
            "first line\nthird line\nfourth line", "first line\nsecond line\nthird line\nfourth line!",
            "first line\nthird line\nfourth line!"
        ),
        // A line added at the top on one side, at the end on the other.
        ("zeroth line\n" + base, base + "\nfifth line", "zeroth line\n" + base + "\nfifth line"),
        // The same edit on both sides: once.
        (base + "\nfifth line", base + "\nfifth line", base + "\nfifth line"),
    ])
    func editsThatDontOverlapMerge(ours: String, theirs: String, merged: String) {
        #expect(ThreeWayMerge.merge(base: Self.base, ours: ours, theirs: theirs) == merged)
        #expect(ThreeWayMerge.merge(base: Self.base, ours: theirs, theirs: ours) == merged)
    }

    @Test(arguments: [
        // One line changed differently.
        (
            "first line\nsecond line, ours\nthird line\nfourth line",
            "first line\nsecond line, theirs\nthird line\nfourth line"
        ),
        // Different lines added at one place.
        (base + "\nours at the end", base + "\ntheirs at the end"),
        // A line removed on one side and changed on the other.
        ("first line\nthird line\nfourth line", "first line\nsecond line changed\nthird line\nfourth line"),
    ])
    func editsThatOverlapDont(ours: String, theirs: String) {
        #expect(ThreeWayMerge.merge(base: Self.base, ours: ours, theirs: theirs) == nil)
        #expect(ThreeWayMerge.merge(base: Self.base, ours: theirs, theirs: ours) == nil)
    }

    @Test func theOtherFieldsMergeFieldByField() throws {
        let base = SyncedState(
            date: 100, text: "text", tags: [Tag(name: "kept", written: "Kept"), Tag(name: "gone", written: "gone")],
            starred: false)
        let ours = SyncedState(
            date: 200, text: "text", tags: [Tag(name: "kept", written: "Kept"), Tag(name: "ours", written: "Ours")],
            starred: false)
        let theirs = SyncedState(
            date: 100, text: "text, theirs",
            tags: [
                Tag(name: "kept", written: "Kept"), Tag(name: "gone", written: "gone"),
                Tag(name: "theirs", written: "theirs"),
            ], starred: true)
        let merged = try #require(ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs))
        #expect(merged.date == 200 && merged.starred && merged.text == "text, theirs")
        #expect(merged.tags.map(\.name) == ["kept", "ours", "theirs"])
    }
}
