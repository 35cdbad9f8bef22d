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
            #expect(input.parallelMap(priority: .process) { $0 * 3 } == input.map { $0 * 3 })
            #expect(input.parallelSlices(priority: .process) { Array($0) }.flatMap { $0 } == input)
        }
    }

    #if os(Linux)
        /// A stage that runs behind the writer maps on every core at its own priority, not at
        /// the one libdispatch gives its workers, nor five steps further behind.
        @Test func workersRunAtTheGivenPriority() throws {
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            let behind = min(getpriority(which, id_t(getpid())) + 5, 19)
            let handOff = try HandOff<[Int32]>.start(priority: .behind) { handOff in
                // Slow enough that every worker takes a share, not the caller all of them.
                let niceness = Array(0..<256).parallelMap(priority: .behind) { _ in
                    usleep(1_000)
                    // On Linux, PRIO_PROCESS with 0 names the calling thread.
                    return getpriority(which, 0)
                }
                _ = handOff.put(Array(Set(niceness)))
            }
            #expect(handOff.take() == [behind])
        }
    #endif
}
