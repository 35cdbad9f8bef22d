import Foundation
import Testing

@testable import JournalKit

@Suite struct DeferredTests {
    /// The value is computed once, on another thread, while the owner goes on; asking again
    /// gives it without computing it again.
    @Test func computesOnceOnAnotherThreadWhileTheOwnerGoesOn() throws {
        /// What the owner and the computing thread share, guarded by `condition`.
        final class Shared: @unchecked Sendable {
            let condition = NSCondition()
            var ownerWentOn = false
            var computations = 0
        }
        let shared = Shared()
        let deferred = try Deferred(priority: .process) { () -> Int in
            shared.condition.lock()
            defer { shared.condition.unlock() }
            // Waits for the owner to have gone on: computed alongside it, not before it returned.
            while !shared.ownerWentOn { shared.condition.wait() }
            shared.computations += 1
            return 42
        }
        shared.condition.lock()
        shared.ownerWentOn = true
        shared.condition.broadcast()
        shared.condition.unlock()
        #expect(deferred.value == 42)
        #expect(deferred.value == 42)
        shared.condition.lock()
        defer { shared.condition.unlock() }
        #expect(shared.computations == 1)
    }

    /// A value never asked for still has its thread joined when the last reference goes: what
    /// the closure captured is released by then.
    @Test func anUnaskedValueIsReleasedWithItsOwner() throws {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            _ = try Deferred(priority: .process) { [captured] in ObjectIdentifier(captured).hashValue }
        }
        #expect(weakCaptured == nil)
    }
}
