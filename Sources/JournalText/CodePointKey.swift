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
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }
}
