import JournalKit
import Testing

@testable import JournalCLI

/// `journal import --status` in text: what it says of an import under way, in each of its
/// stages, and of a journal with nothing pending.
@Suite struct ImportStatusTests {
    @Test func anImportWhoseEntriesAreWrittenSaysSoBesideHowFarIndexingHasGot() {
        let lines = ImportCommand.statusLines(
            pending: nil, underWay: true,
            indexing: IndexingProgress(pendingEntries: 10_000_000, indexedEntries: 3_840_000, isRebuilding: false),
            indexingUnderWay: true)
        #expect(
            lines == [
                "an import is under way: its entries are written, not shown until they are indexed",
                "indexing: 3,840,000 of 10,000,000 new entries",
            ])
    }

    @Test func anImportThatHasWrittenNothingSaysSo() {
        #expect(
            ImportCommand.statusLines(pending: nil, underWay: true, indexing: nil, indexingUnderWay: false) == [
                "an import is under way: nothing of it is written yet"
            ])
    }

    @Test func aJournalWithNothingPendingSaysSo() {
        #expect(
            ImportCommand.statusLines(pending: nil, underWay: false, indexing: nil, indexingUnderWay: false) == [
                "nothing pending: every entry is written and indexed"
            ])
        #expect(
            ImportCommand.statusLines(
                pending: nil, underWay: false,
                indexing: IndexingProgress(pendingEntries: 1, indexedEntries: 0, isRebuilding: false),
                indexingUnderWay: true)
                == ["indexing: 0 of 1 new entry"])
    }

    /// Indexing that no process is doing (its import was killed while indexing) says it
    /// stopped, and what finishes it.
    @Test func indexingThatNoProcessIsDoingSaysItStopped() {
        #expect(
            ImportCommand.statusLines(
                pending: nil, underWay: false,
                indexing: IndexingProgress(pendingEntries: 203_868, indexedEntries: 40_000, isRebuilding: false),
                indexingUnderWay: false)
                == [
                    "indexing: 40,000 of 203,868 new entries, stopped: the next command that opens the journal finishes it first"
                ])
    }
}
