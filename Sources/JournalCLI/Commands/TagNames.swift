import ArgumentParser
import JournalKit

/// The tag names `tag` and `untag` take, refused before the journal is opened when one is not
/// a tag name.
struct TagNames: ParsableArguments {
    @Argument(help: ArgumentHelp("The tags, with or without # or @.", valueName: "NAME"))
    var names: [String]

    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("name at least one tag") }
        do { _ = try NewEntry.tagNames(names) } catch { throw ValidationError(error.message) }
    }
}
