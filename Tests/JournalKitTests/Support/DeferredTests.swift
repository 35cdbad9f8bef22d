import Foundation
import Testing

@testable import JournalKit

@Suite struct DeferredTests {
    /// The value is computed once, on another thread, while the owner goes on; asking again
    /// gives it without computing it again.
    @Test func computesOnceOnAnotherThreadWhileTheOwnerGoesOn() throws {
        let started = NSCondition()
        nonisolated(unsafe) var computations = 0
        nonisolated(unsafe) var ownerWentOn = false
        let deferred = try Deferred { () -> Int in
            started.lock()
            // Waits for the owner to have gone on: computed alongside it, not before it returned.
            while !ownerWentOn { started.wait() }
            started.unlock()
            computations += 1
            return 42
        }
        started.lock()
        ownerWentOn = true
        started.broadcast()
        started.unlock()
        #expect(deferred.value == 42)
        #expect(deferred.value == 42)
        #expect(computations == 1)
    }

    /// A value never asked for still has its thread joined when the last reference goes: what
    /// the closure captured is released by then.
    @Test func anUnaskedValueIsReleasedWithItsOwner() throws {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            _ = try Deferred { [captured] in ObjectIdentifier(captured).hashValue }
        }
        #expect(weakCaptured == nil)
    }
}
