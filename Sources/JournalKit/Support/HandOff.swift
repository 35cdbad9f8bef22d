import Foundation

/// A one-slot channel between a producing thread and the thread that uses its values: the
/// producer waits while the slot is full, the consumer while it is empty, so work is made at
/// most one step ahead of its use and both cores stay busy.
final class HandOff<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slot: Value?
    private var finished = false
    private var cancelled = false

    /// Runs `produce` on a new thread, which hands values over until it returns or `put`
    /// reports that the consumer has cancelled.
    static func start(_ produce: @escaping @Sendable (HandOff) -> Void) -> HandOff {
        let handOff = HandOff()
        let thread = Thread {
            produce(handOff)
            handOff.finish()
        }
        thread.stackSize = 4 << 20
        thread.start()
        return handOff
    }

    /// Hands `value` over; false when the consumer has cancelled and nothing more is wanted.
    func put(_ value: Value) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while slot != nil, !cancelled { condition.wait() }
        guard !cancelled else { return false }
        slot = value
        condition.broadcast()
        return true
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next value, or nil once the producer has finished and the slot is empty.
    func take() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while slot == nil, !finished { condition.wait() }
        let value = slot
        slot = nil
        condition.broadcast()
        return value
    }

    /// Tells the producer to stop, and waits until it has: whatever it reads (an input file,
    /// a store) may be gone once the consumer returns.
    func cancel() {
        condition.lock()
        cancelled = true
        slot = nil
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
