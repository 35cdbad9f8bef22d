import CThreadPlacement
import Foundation
import Testing

@testable import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Threads started for helper work, and giving way to the threads that wait for them.
struct PosixThreadTests {
    /// The `nice` value of the calling thread.
    private static func niceOfThisThread() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread_placement_current_tid()))
    }

    #if os(Linux)
        @Test func aThreadThatGivesWayLowersItsOwnPriorityOnly() throws {
            let before = Self.niceOfThisThread()
            let seen = try Deferred { () -> (Int32, Int32) in
                let started = Self.niceOfThisThread()
                PosixThread.giveWay()
                return (started, Self.niceOfThisThread())
            }
            let (started, after) = seen.value
            #expect(started == before, "a thread starts with its starter's priority")
            #expect(after == min(before + 5, 19))
            #expect(Self.niceOfThisThread() == before, "the starter keeps its own")
        }
    #endif
}
