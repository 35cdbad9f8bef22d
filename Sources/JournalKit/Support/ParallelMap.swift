import Foundation
import Dispatch

extension Array where Element: Sendable {
    /// `map` spread over every core: for CPU-bound text analysis of a batch.
    func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 64 else { return map(transform) }
        let workers = Swift.min(ProcessInfo.processInfo.activeProcessorCount, (count + 63) / 64)
        let output = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
        output.initialize(repeating: nil)
        defer {
            // Release the slots' values before freeing them: `deallocate` alone would leak them.
            _ = output.deinitialize()
            output.deallocate()
        }
        nonisolated(unsafe) let slots = output
        let input = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < input.count {
                slots[index] = transform(input[index])
                index += workers
            }
        }
        return output.map { $0! }
    }
}
