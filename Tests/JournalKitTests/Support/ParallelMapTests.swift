import Foundation
import Testing

@testable import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ParallelMapTests {
    @Test func mapsInOrderWhateverTheSize() {
        for count in [0, 1, 64, 65, 1_000, 10_007] {
            let input = Array(0..<count)
            #expect(input.parallelMap { $0 * 3 } == input.map { $0 * 3 })
            #expect(input.parallelSlices { Array($0) }.flatMap { $0 } == input)
        }
    }

    #if os(Linux)
        /// An import lowers its priority (a nice value) and gives way to other processes: the
        /// threads that map for it run at that priority too, not at the one libdispatch gives
        /// its workers.
        @Test func workersRunAtTheCallersPriority() throws {
            let handOff = try HandOff<[Int32]>.start { handOff in
                // On Linux, PRIO_PROCESS with 0 names the calling thread: only this one.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 7)
                // Slow enough that every worker takes a share, not the caller all of them.
                let niceness = Array(0..<256).parallelMap { _ in
                    usleep(1_000)
                    return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                }
                _ = handOff.put(Array(Set(niceness)))
            }
            #expect(handOff.take() == [7])
        }
    #endif
}
