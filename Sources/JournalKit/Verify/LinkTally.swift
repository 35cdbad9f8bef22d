/// A set of (owner, entry) links summed up in constant memory: their count and a sum of their
/// hashes, equal for two sets of the same links (and, but for a 2⁻⁶⁴ chance, only then).
struct LinkTally: Equatable {
    private(set) var links = 0
    private var sum: UInt64 = 0

    /// Adds the link of `entry` to `owner` (a token, a prefix key, a day).
    mutating func add(owner: Int64, entry: Int64) {
        links += 1
        var mixed = UInt64(bitPattern: owner << 32 | entry) &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        sum &+= mixed ^ (mixed >> 31)
    }
}
