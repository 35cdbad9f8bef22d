/// The tags jrnl 4.6 reads in a text, as its exports name them, so that an export in jrnl's
/// JSON names each entry's tags as jrnl itself does reading the same entries.
///
/// jrnl's rule differs from this journal's (`Tags` of `JournalText`): a `#` or `@` that starts
/// the text or follows white space, then one or more word characters (Python's: letters, digits
/// and `_`, no combining marks) or any of `-+*#/`, the whole lowercased as Python lowercases,
/// sign included (`#Crème-Brûlée!` is `#crème-brûlée`, `@Ana` is `@ana`).
public enum JrnlTags {
    /// The tags jrnl reads in `text`, each once, in order of first appearance.
    public static func inText(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var tags: [String] = []
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "#" || scalars[index] == "@", index == 0 || isSpace(scalars[index - 1]) else {
                continue
            }
            var end = index + 1
            while end < scalars.count, isTagCharacter(scalars[end]) { end += 1 }
            guard end > index + 1 else { continue }
            let tag = lowercased(scalars[index..<end])
            if !tags.contains(tag) { tags.append(tag) }
            index = end - 1
        }
        return tags
    }

    /// Python's `\w` or one of `-+*#/`.
    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if "-+*#/_".unicodeScalars.contains(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return scalar.properties.numericType != nil
        }
    }

    /// Python's `str.isspace`.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
    }

    /// Python's `str.lower`: the full lowercase mapping of each character, a capital sigma
    /// that ends a word becoming a final sigma.
    private static func lowercased(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var result = ""
        for index in scalars.indices {
            let scalar = scalars[index]
            if scalar == "\u{03A3}", endsWord(at: index, in: scalars) {
                result += "\u{03C2}"
            } else {
                result += scalar.properties.lowercaseMapping
            }
        }
        return result
    }

    /// Unicode's Final_Sigma condition: a cased letter before (past case-ignorable ones), none
    /// after.
    private static func endsWord(at index: Int, in scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        func cased(in range: some Sequence<Int>) -> Bool {
            for other in range {
                let properties = scalars[other].properties
                if properties.isCaseIgnorable { continue }
                return properties.isCased
            }
            return false
        }
        return cased(in: (scalars.startIndex..<index).reversed()) && !cased(in: (index + 1)..<scalars.endIndex)
    }
}
