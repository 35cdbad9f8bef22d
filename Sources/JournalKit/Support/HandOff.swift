import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-slot channel between a producing thread and the thread that uses its values: the
/// producer waits while the slot is full, the consumer while it is empty, so both cores stay
/// busy. A producer that calls `waitForRoom()` before making each value makes it only once the
/// consumer has taken the last one: at most two values are alive at a time (the one in use and
/// the next), not three.
///
/// The producer runs on a joined POSIX thread, and the consumer's last `take()` (or `cancel()`)
/// returns only once that thread has ended: by then the producer's closure, and every reference
/// it captured, has been released in the thread's ordinary flow. A thread that outlived its
/// work would release them later, in its exit's thread-local destructors; a producer holding a
/// journal's stores would then, if the journal was released meanwhile, tear down SQLite
/// connections and GRDB's dispatch queues in a thread whose dispatch state is already gone,
/// which corrupted the heap.
final class HandOff<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slot: Value?
    private var finished = false
    private var cancelled = false
    private var thread: pthread_t?

    /// Runs `produce` on a new thread at `priority`, which hands values over until it returns
    /// or `put` reports that the consumer has cancelled.
    static func start(
        priority: ThreadPriority, _ produce: @escaping @Sendable (HandOff) -> Void
    ) throws(JournalError) -> HandOff {
        let handOff = HandOff()
        let work = ProducerWork(handOff: handOff, produce: produce)
        let thread = try PosixThread.start(priority: priority, stackSize: 4 << 20) { work.run() }
        handOff.thread = thread
        return handOff
    }

    /// Waits until the slot is empty, so that the next value is made only when it can be handed
    /// over; false when the consumer has cancelled and nothing more is wanted.
    func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return waitWhileFull()
    }

    /// Hands `value` over; false when the consumer has cancelled and nothing more is wanted.
    func put(_ value: Value) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard waitWhileFull() else { return false }
        slot = value
        condition.broadcast()
        return true
    }

    /// Waits, holding the condition's lock, while the slot is full; false once cancelled.
    private func waitWhileFull() -> Bool {
        while slot != nil, !cancelled { condition.wait() }
        return !cancelled
    }

    fileprivate func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next value, or nil once the producer has finished (its thread ended) and the slot is
    /// empty.
    func take() -> Value? {
        condition.lock()
        while slot == nil, !finished { condition.wait() }
        let value = slot
        slot = nil
        condition.broadcast()
        condition.unlock()
        if value == nil { join() }
        return value
    }

    /// Tells the producer to stop, and waits until its thread has ended: whatever it reads (an
    /// input file, a store) may be gone once the consumer returns.
    func cancel() {
        condition.lock()
        cancelled = true
        slot = nil
        condition.broadcast()
        condition.unlock()
        join()
    }

    /// Waits for the producer's thread to end (once; later calls return at once).
    private func join() {
        condition.lock()
        let thread = self.thread
        self.thread = nil
        condition.unlock()
        if let thread { pthread_join(thread, nil) }
    }

    /// A consumer that let go without taking to the end or cancelling leaves the producer the
    /// last reference: released there, at the end of its own thread, which cannot join itself
    /// and is detached instead, so that the system frees it when it ends.
    deinit {
        if let thread, pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            join()
        }
    }
}

/// The producer's closure and its channel, owned by the producing thread until it is done.
private final class ProducerWork<Value: Sendable> {
    let handOff: HandOff<Value>
    var produce: (@Sendable (HandOff<Value>) -> Void)?

    init(handOff: HandOff<Value>, produce: @escaping @Sendable (HandOff<Value>) -> Void) {
        self.handOff = handOff
        self.produce = produce
    }

    /// Produces, drops the closure (and what it captured), then says the producer is finished.
    func run() {
        produce?(handOff)
        produce = nil
        handOff.finish()
    }
}
