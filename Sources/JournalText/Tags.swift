#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tag of an entry: the canonical name that says which tag it is, and the form it was
/// written in (`Café` for `#Café`), which is how people see it.
public struct Tag: Hashable, Sendable, Codable {
    /// The canonical name: two tags with the same name are one tag.
    public let name: String
    /// The form it was written in, without its sign, composed (NFC); case and marks as written.
    public let written: String

    /// A tag `name` written `written`.
    public init(name: String, written: String) {
        self.name = name
        self.written = written
    }
}

/// `tags(e)` of the search semantics, as far as the text goes: the tags written in it.
///
/// A tag is a `#` or `@` at the start of the text or right after a white-space character,
/// followed by a run of letters, marks, digits, `_`, `-` and `/` that holds at least one
/// letter or digit, without a trailing `-` or `/`. Its name is the canonical form of that run,
/// so that `#Café`, `@cafe` and a tag `cafe` given explicitly are one tag. `# Heading`, `####`
/// and `me@example.com` hold none; `#東京` and `@idea-box` are tags.
public enum Tags {
    /// The tags written in `text`, each once, in order of first appearance, each in the form
    /// it first appears in.
    public static func inText(_ text: String) -> [Tag] {
        // Most texts have no sign at all: found in their bytes (a byte of `#` or `@` in UTF-8 is
        // that character) by memchr, they cost no decoding into scalars.
        guard hasSign(text) else { return [] }
        var tags: [Tag] = []
        var seen = Set<String>()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let startsTag =
                (scalar == "#" || scalar == "@") && (index == 0 || scalars[index - 1].properties.isWhitespace)
            index += 1
            guard startsTag else { continue }
            let (end, tag) = run(in: scalars, from: index)
            if let tag, seen.insert(tag.name).inserted { tags.append(tag) }
            index = end
        }
        return tags
    }

    /// The names of the tags written in `text`, each once, in order of first appearance.
    public static func names(inText text: String) -> [String] { inText(text).map(\.name) }

    /// The tag an item of a query names when it starts with `#` or `@` (`#travel/japan!` names
    /// `travel/japan`): the run after the sign, read as in a text; nil when the item does not
    /// start with a sign or the run holds no letter or digit.
    public static func named(byItem item: Substring) -> String? {
        let scalars = Array(item.unicodeScalars)
        guard let first = scalars.first, first == "#" || first == "@" else { return nil }
        return run(in: scalars, from: 1).tag?.name
    }

    /// The run of tag characters starting at `start` (just after a sign): where it ends, and
    /// the tag it names, if any.
    private static func run(in scalars: [Unicode.Scalar], from start: Int) -> (end: Int, tag: Tag?) {
        var end = start
        while end < scalars.count, isTagCharacter(scalars[end]) { end += 1 }
        var run = scalars[start..<end]
        while let last = run.last, last == "-" || last == "/" { run = run.dropLast() }
        guard run.contains(where: isLetterOrDigit) else { return (end, nil) }
        return (end, given(String(String.UnicodeScalarView(run))))
    }

    /// A tag as a user gives it (`#Café`, ` cafe `): the name without a leading `#` or `@` and
    /// the white space around it, in that form; nil when nothing of a tag is left.
    public static func given(_ name: String) -> Tag? {
        var scalars = Substring(name.trimmingWhiteSpace).unicodeScalars[...]
        if let first = scalars.first, first == "#" || first == "@" { scalars = scalars.dropFirst() }
        guard scalars.contains(where: isLetterOrDigit) else { return nil }
        let written = String(String.UnicodeScalarView(scalars))
        let canonical = Fold.canonical(written)
        return canonical.isEmpty ? nil : Tag(name: canonical, written: Fold.composed(written))
    }

    /// The canonical name of a tag as a user gives it (`#Café`, `cafe`): that of ``given(_:)``.
    public static func canonicalName(_ name: String) -> String? { given(name)?.name }

    private static func hasSign(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: "#")), bytes.count) != nil
                || memchr(base, Int32(UInt8(ascii: "@")), bytes.count) != nil
        }
    }

    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            scalar == "_" || scalar == "-" || scalar == "/"
        }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
