import Foundation
import Testing

@testable import JournalKit

/// A search announces itself while it runs, on its thread's byte of the file beside the search
/// store, and only when an import has created that file.
@Suite struct SearchPresenceTests {
    /// A journal whose announcement file exists (as an import watching for searches leaves
    /// it), and a descriptor of that file to look through, as the import does.
    private final class Watched {
        let store: TemporaryJournal
        let descriptor: Int32

        init() throws {
            store = try TemporaryJournal()
            let url = SearchPresence.url(besides: store.directory.searchStoreURL)
            try DurableFiles.createPrivateFile(at: url)
            descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            #expect(descriptor >= 0)
        }

        deinit { close(descriptor) }

        var searcher: Int32? { SearchPresence.searcher(in: descriptor) }

        func announcer() throws -> SearchPresence {
            try #require(SearchPresence.announcer(besides: store.directory.searchStoreURL))
        }
    }

    @Test func nothingIsAnnouncedWhereNoImportWatches() throws {
        let store = try TemporaryJournal()
        #expect(SearchPresence.announcer(besides: store.directory.searchStoreURL) == nil)
        // A search of such a journal runs as it would.
        #expect(try store.journal.search("anything").total == 0)
    }

    @Test func aSearchIsSeenWhileItRunsAndNotAfter() throws {
        let watched = try Watched()
        let presence = try watched.announcer()
        #expect(watched.searcher == nil)
        let seen = presence.during { watched.searcher }
        #expect(seen == (SearchPresence.callingThread))
        #expect(watched.searcher == nil)
    }

    @Test func aSearchRunInsideAnotherLeavesItAnnounced() throws {
        let watched = try Watched()
        let presence = try watched.announcer()
        let thread = SearchPresence.callingThread
        presence.during {
            presence.during { #expect(watched.searcher == thread) }
            #expect(watched.searcher == thread)
        }
        #expect(watched.searcher == nil)
    }

    @Test func searchesOnTwoThreadsAreSeenUntilBothHaveEnded() throws {
        let watched = try Watched()
        let presence = try watched.announcer()
        let other = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = Thread { [presence] in
            presence.during {
                other.signal()
                release.wait()
            }
            other.signal()
        }
        thread.start()
        other.wait()
        let otherThread = try #require(watched.searcher)
        let mine = SearchPresence.callingThread
        #expect(otherThread != mine)
        presence.during {}
        #expect(watched.searcher == otherThread, "the other thread's search still runs")
        release.signal()
        other.wait()
        #expect(watched.searcher == nil)
    }

    @Test func aProcessThatAnswersOneSearchAnnouncesItUntilItsJournalIsReleased() throws {
        let watched = try Watched()
        watched.store.close()
        let thread = SearchPresence.callingThread
        var journal: Journal? = try Journal(directory: watched.store.directory, use: .oneAnswer)
        #expect(watched.searcher == thread)
        #expect(try journal?.search("anything").total == 0)
        #expect(watched.searcher == thread)
        journal = nil
        #expect(watched.searcher == nil)
        // Kept open, a journal announces each search only while it runs.
        let kept = try Journal(directory: watched.store.directory, use: .kept)
        #expect(watched.searcher == nil)
        #expect(try kept.search("anything").total == 0)
        #expect(watched.searcher == nil)
    }
}
