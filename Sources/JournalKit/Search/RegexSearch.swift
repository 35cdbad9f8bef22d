import JournalText

/// `journal search --regex`: a real regular expression (ICU syntax) over the text as written,
/// for users who want one; not a strategy of the semantics, which treat every query literally.
enum RegexSearch {
    static let name = "regex"

    static func matcher(pattern: String, caseInsensitive: Bool) throws(JournalError) -> RegexMatcher {
        guard !pattern.isEmpty else { throw .usage("the regular expression is empty") }
        do {
            return try RegexMatcher(pattern: pattern, options: caseInsensitive ? .caseInsensitive : [])
        } catch {
            let place = error.offset.map { " at character \($0 + 1)" } ?? ""
            throw .usage("invalid regular expression \"\(pattern)\": \(error.reason)\(place)")
        }
    }
}
