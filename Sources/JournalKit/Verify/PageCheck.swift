import Foundation
import GRDB

/// Every page of a store read and its B-trees' structure checked (SQLite's `PRAGMA
/// quick_check`): the indexes too, which no other check reads, so that a damaged page (in an
/// encrypted store, one cut short or whose seal fails) is found by `verify` and not by the
/// search that first needs it.
enum PageCheck {
    /// Checks the store at `url`, read in `db`, reporting each problem the check finds; false
    /// when there was any.
    static func run(_ url: URL, in db: Database, problems: inout ProblemLog) throws -> Bool {
        let results = try StoreDatabase.guarded(url) { try String.fetchAll(db, sql: "PRAGMA quick_check") }
        guard results != ["ok"] else { return true }
        // A result may hold several lines, the first naming the schema ("*** in database main ***").
        let lines = results.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("*** ") }
        for line in lines { problems.add("pages", "\(url.lastPathComponent): \(line)") }
        // A page the encrypting VFS refused (SQLITE_IOERR_DATA): it says why.
        if lines.contains(where: { $0.contains("error code=\(ResultCode.SQLITE_IOERR_DATA.rawValue)") }),
            let failure = StoreEncryption.lastFailure(), failure.hasPrefix(url.path)
        {
            problems.add("pages", failure)
        }
        return false
    }
}
