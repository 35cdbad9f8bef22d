import Foundation
import Testing

@testable import JournalKit

/// What an entry is, given its heads: the rules of `SyncMerge`, each on its own.
@Suite struct SyncMergeTests {
    static let entry = "x-journal://00000000-0000-0000-0000-000000000001/Entry/p1"

    static func head(_ milliseconds: Int64, _ text: String?, device: UUID = UUID()) -> SyncMerge.Head {
        SyncMerge.Head(
            version: SyncVersion(milliseconds: milliseconds, counter: 0, device: device),
            state: text.map { SyncedState(date: 0, text: $0, tags: [], starred: false) })
    }

    @Test func theLatestEditWinsAndEachOtherEditIsKeptAsACopyOnce() throws {
        let heads = [Self.head(3, "latest"), Self.head(1, "the same words"), Self.head(2, "the same words")]
        for order in [heads, heads.reversed(), [heads[1], heads[0], heads[2]]] {
            let resolved = try #require(SyncMerge.resolve(Self.entry, heads: order) { _, _ in nil })
            #expect(resolved.winner == heads[0])
            #expect(resolved.copies.map(\.state.text) == ["the same words"])
            #expect(resolved.copies.first?.version == heads[2].version)
            #expect(resolved.copies.first?.state.tags == [SyncMerge.conflictTag])
        }
    }

    @Test func anEditBeatsADeleteAndEditsAlikeAreOne() throws {
        let heads = [Self.head(3, nil), Self.head(2, "kept"), Self.head(1, "kept")]
        let resolved = try #require(SyncMerge.resolve(Self.entry, heads: heads) { _, _ in nil })
        #expect(resolved.winner == heads[1])
        #expect(resolved.merged == [heads[2].version])
        #expect(resolved.copies.isEmpty)
    }
}
