import ArgumentParser
import JournalKit

/// What `tag` and `untag` take: an entry's identifier then tag names, or only names when
/// `--query` or a filter chooses the entries. Names are refused before the journal is opened
/// when one is not a tag name.
struct TaggingArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The entry (its URI, p12 or 12), then the tags, with or without # or @; only the tags with --query or a filter.",
            valueName: "ID NAME"))
    var words: [String] = []

    /// The identifier, when one entry is named, and the tag names.
    func split(choosingASet: Bool) throws -> (id: String?, names: [String]) {
        let (id, names) = choosingASet ? (nil, words) : (words.first, Array(words.dropFirst()))
        guard !names.isEmpty else {
            throw ValidationError(choosingASet ? "name at least one tag" : "name an entry (p12), then at least one tag")
        }
        do { _ = try NewEntry.tagNames(names) } catch { throw ValidationError(error.message) }
        return (id, names)
    }
}
