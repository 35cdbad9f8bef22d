import CThreadPlacement
import Foundation
import Testing

@testable import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Threads run at the priority named where they are started, relative to the process's, never
/// to that of the thread that started them.
struct ThreadPriorityTests {
    #if os(Linux)
        /// The `nice` value of the calling thread.
        private static func niceOfThisThread() -> Int32 {
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread_placement_current_tid()))
        }

        /// The process's: its main thread's.
        private static func niceOfTheProcess() -> Int32 {
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
        }

        @Test func aStageStartedByAStageBehindIsNotFurtherBehind() throws {
            let before = Self.niceOfThisThread()
            let behind = min(Self.niceOfTheProcess() + 5, 19)
            let seen = try Deferred(priority: .behind) { () -> (Int32, Int32?) in
                let inner = try? Deferred(priority: .behind) { Self.niceOfThisThread() }.value
                return (Self.niceOfThisThread(), inner)
            }
            let (outer, inner) = seen.value
            #expect(outer == behind)
            #expect(inner == behind, "started by a thread behind, still five steps, not ten")
            #expect(Self.niceOfThisThread() == before, "the starter keeps its own")
        }

        @Test func aThreadAtTheProcessPriorityRunsAtTheMainThreads() throws {
            let seen = try Deferred(priority: .process) { Self.niceOfThisThread() }
            #expect(seen.value == Self.niceOfTheProcess())
        }
    #endif
}
