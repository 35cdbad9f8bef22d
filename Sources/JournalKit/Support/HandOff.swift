import Foundation

/// A one-slot channel between two threads: the producer waits while the slot is full, the
/// consumer while it is empty, so work is made at most one step ahead of its use.
final class HandOff<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slot: Value?
    private var finished = false
    private var cancelled = false

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

    /// Says there will be no more values.
    func finish() {
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

    /// Tells the producer to stop.
    func cancel() {
        condition.lock()
        cancelled = true
        slot = nil
        condition.broadcast()
        condition.unlock()
    }
}
