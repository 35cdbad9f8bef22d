import Foundation
import Testing

@testable import JournalKit

@Suite struct HandOffTests {
    @Test func handsEveryValueOverInOrderThenEnds() {
        let handOff = HandOff<Int>.start { handOff in
            for value in 1...1_000 { guard handOff.put(value) else { return } }
        }
        var received: [Int] = []
        while let value = handOff.take() { received.append(value) }
        #expect(received == Array(1...1_000))
    }

    @Test func cancellingStopsTheProducer() {
        let produced = Counter()
        let handOff = HandOff<Int>.start { handOff in
            var value = 0
            while handOff.put(value) {
                value += 1
                produced.set(value)
            }
        }
        #expect(handOff.take() == 0)
        handOff.cancel()
        #expect(handOff.take() == nil, "nothing after cancelling, and the producer finished")
        #expect(produced.value <= 3, "the producer stays at most a step ahead, then stops")
    }

    /// The import's reader belongs to the caller: a consumer that stops early (a bad line) must
    /// not return while the producer still reads it.
    @Test func cancelWaitsForAProducerStillAtWork() {
        let finishedWork = Counter()
        let handOff = HandOff<Int>.start { handOff in
            guard handOff.put(1) else { return }
            Thread.sleep(forTimeInterval: 0.2)
            finishedWork.set(1)
            _ = handOff.put(2)
        }
        #expect(handOff.take() == 1)
        handOff.cancel()
        #expect(finishedWork.value == 1)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}
