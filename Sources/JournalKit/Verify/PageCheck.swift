import Foundation
import GRDB

/// Every page of a store read and its B-trees' structure checked
/// (``StoreDatabase/pageProblems(in:url:)``): the indexes too, which no other check reads, so
/// that a damaged page (in an encrypted store, one cut short or whose seal fails) is found by
/// `verify` and not by the search that first needs it.
enum PageCheck {
    /// Checks the store at `url`, read in `db`, reporting each problem the check finds; false
    /// when there was any.
    static func run(_ url: URL, in db: Database, problems: inout ProblemLog) throws -> Bool {
        let found = try StoreDatabase.pageProblems(in: db, url: url)
        for line in found {
            problems.add("pages", line.hasPrefix(url.path) ? line : "\(url.lastPathComponent): \(line)")
        }
        return found.isEmpty
    }
}
