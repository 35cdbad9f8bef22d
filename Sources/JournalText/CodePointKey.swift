#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A string as a dictionary key compared and hashed by its code points (its UTF-8 bytes), as
/// the search semantics compare tokens, rather than by Swift's canonical equivalence, which
/// normalizes every non-ASCII string it hashes.
package struct CodePointKey: Hashable, Sendable {
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
}
