import Foundation
import Testing

@testable import JournalKit

@Suite struct HandOffTests {
    @Test func handsEveryValueOverInOrderThenEnds() throws {
        let handOff = try HandOff<Int>.start(priority: .process) { handOff in
            for value in 1...1_000 { guard handOff.put(value) else { return } }
        }
        var received: [Int] = []
        while let value = handOff.take() { received.append(value) }
        #expect(received == Array(1...1_000))
    }

    @Test func cancellingStopsTheProducer() throws {
        let produced = Counter()
        let handOff = try HandOff<Int>.start(priority: .process) { handOff in
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

    /// The indexer's batches are large: with `waitForRoom()` the producer makes the next value
    /// only once the last was taken, never a third while two are alive.
    @Test func aProducerThatWaitsForRoomMakesOnlyTheNextValue() throws {
        let made = Counter()
        let handOff = try HandOff<Int>.start(priority: .process) { handOff in
            var value = 0
            while handOff.waitForRoom() {
                value += 1
                made.set(value)
                guard handOff.put(value) else { return }
            }
        }
        #expect(handOff.take() == 1)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(made.value == 2, "the one taken and the next, in the slot")
        #expect(handOff.take() == 2)
        handOff.cancel()
        #expect(made.value <= 3)
    }

    /// The import's reader belongs to the caller: a consumer that stops early (a bad line) must
    /// not return while the producer still reads it.
    @Test func cancelWaitsForAProducerStillAtWork() throws {
        let finishedWork = Counter()
        let handOff = try HandOff<Int>.start(priority: .process) { handOff in
            guard handOff.put(1) else { return }
            Thread.sleep(forTimeInterval: 0.2)
            finishedWork.set(1)
            _ = handOff.put(2)
        }
        #expect(handOff.take() == 1)
        handOff.cancel()
        #expect(finishedWork.value == 1)
    }

    /// What the producer captured is released, on its thread, before the consumer's last
    /// `take()` returns: a thread that kept it until its exit released a journal's stores in
    /// its thread-local destructors, where tearing down SQLite and dispatch queues corrupted
    /// the heap.
    @Test(arguments: 0..<20) func theProducersCapturesAreGoneWhenTheLastTakeReturns(_ run: Int) throws {
        let released = Counter()
        let handOff: HandOff<Int>
        do {
            let captured = Tracked(onDeinit: { released.set(1) })
            handOff = try HandOff<Int>.start(priority: .process) { [captured] handOff in
                _ = handOff.put(captured.value)
            }
        }
        #expect(handOff.take() == 7)
        #expect(handOff.take() == nil)
        #expect(released.value == 1, "run \(run): the producer's closure still held its captures")
    }

    @Test func theCapturesAreGoneWhenCancelReturns() throws {
        let released = Counter()
        let handOff: HandOff<Int>
        do {
            let captured = Tracked(onDeinit: { released.set(1) })
            handOff = try HandOff<Int>.start(priority: .process) { [captured] handOff in
                while handOff.put(captured.value) {}
            }
        }
        #expect(handOff.take() == 7)
        handOff.cancel()
        #expect(released.value == 1)
    }
}

private final class Tracked: Sendable {
    let value = 7
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}
