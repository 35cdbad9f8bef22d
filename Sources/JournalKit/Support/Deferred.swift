import Foundation

/// A value computed on a thread of its own while its owner goes on with other work, and waited
/// for where it is needed: a batch's postings, listed while the writer writes the batch's
/// tokens and documents. The thread is joined when the value is first asked for, or, if it
/// never is, when this goes: by then the closure, and what it captured, is released.
final class Deferred<Value: Sendable>: @unchecked Sendable {
    private let handOff: HandOff<Value>
    private let lock = NSLock()
    private var computed: Value?

    /// Starts computing the value, on a thread at `priority`.
    init(priority: ThreadPriority, _ compute: @escaping @Sendable () -> Value) throws(JournalError) {
        handOff = try HandOff.start(priority: priority) { handOff in _ = handOff.put(compute()) }
    }

    /// The value, once computed.
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let computed { return computed }
        // The producer puts exactly one value; the second take returns once its thread has ended.
        let value = handOff.take()!
        _ = handOff.take()
        computed = value
        return value
    }

    deinit { handOff.cancel() }
}
