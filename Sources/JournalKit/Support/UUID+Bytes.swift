import Foundation

/// A UUID as its 16 bytes, in the order RFC 9562 lays them out: how the sync ledger keeps an
/// entry's store, and how the prefix table's file and its sealed chunks carry their tag.
extension UUID {
    /// The UUID whose bytes are `bytes`; nil unless there are exactly 16.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        self.init(uuid: bytes.loadUnaligned(as: uuid_t.self))
    }

    /// Calls `body` with the UUID's 16 bytes, without copying them.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: uuid, body)
    }
}
