#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A string as a dictionary key compared and hashed by its code points (its UTF-8 bytes), as
/// the search semantics compare tokens, rather than by Swift's canonical equivalence, which
/// normalizes every non-ASCII string it hashes. Keys order as their bytes do, which is
/// SQLite's `BINARY` order of the same text.
package struct CodePointKey: Hashable, Comparable, Sendable {
    package let string: String

    package init(_ string: String) { self.string = string }

    package func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package static func == (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
        // The two buffers compared at once, not a byte at a time through two UTF-8 views:
        // interning tokens compares a key at every word of every entry.
        var (left, right) = (lhs.string, rhs.string)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    /// The first eight bytes, big-endian, zeros after a shorter key's end: two keys whose
    /// leading bytes differ order as these do, so that a sort compares whole keys only on ties.
    package var leadingBytes: UInt64 {
        var string = string
        return string.withUTF8 { bytes in
            var value: UInt64 = 0
            for index in 0..<8 { value = value << 8 | UInt64(index < bytes.count ? bytes[index] : 0) }
            return value
        }
    }

    package static func < (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
        var (left, right) = (lhs.string, rhs.string)
        return left.withUTF8 { left in
            right.withUTF8 { right in compare(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) < 0 }
        }
    }

    /// How the text whose UTF-8 bytes are `left` orders against `right`'s, bytes first and then
    /// length, as keys order and as SQLite's `BINARY` collation orders texts: negative, zero or
    /// positive.
    package static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}
