/// A set of (owner, entry) links, each with what it says of the entry (a token's positions in
/// it), summed up in constant memory: their count and a sum of their hashes, equal for two sets
/// of the same links (and, but for a 2⁻⁶⁴ chance, only then).
struct LinkTally: Equatable {
    private(set) var links = 0
    private var sum: UInt64 = 0

    /// Adds the link of `entry` to `owner` (a token, a prefix key, a day), with `detail` (the
    /// ``positionsDigest(_:)`` of a token's positions, 0 for links without).
    mutating func add(owner: Int64, entry: Int64, detail: UInt64 = 0) {
        links += 1
        sum &+= Self.mix(Self.mix(UInt64(bitPattern: owner << 32 | entry)) &+ detail)
    }

    /// A hash of a list of positions, for ``add(owner:entry:detail:)``; nil (a list that is not
    /// one) hashes apart from every list.
    static func positionsDigest(_ positions: [UInt32]?) -> UInt64 {
        guard let positions else { return 0x5151_5151_5151_5151 }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for position in positions { hash = mix(hash ^ UInt64(position)) }
        return hash
    }

    /// SplitMix64's finalizer.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = value &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
