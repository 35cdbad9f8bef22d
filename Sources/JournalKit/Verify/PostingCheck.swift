import GRDB

/// The postings of tokens (with their positions) and of prefix keys (a key of two code points
/// with its tokens' positions), in their segments, recent
/// segments and staged runs (``PostingRuns``), against the links the entries imply, recent
/// segments after the others, and no token or prefix key left that no entry holds.
enum PostingCheck {
    /// Checks the postings `segments` (of tokens, or of prefix keys, called `name`) against
    /// `expected`, the owners being `owners`.
    static func run(
        _ segments: PostingSegments, name: String, expected: LinkTally, owners: Set<Int64>, in db: Database,
        problems: inout ProblemLog
    ) throws {
        var found = LinkTally()
        var used = Set<Int64>()
        var positions: [UInt32] = []
        func tally(owner: Int64, entry: Int64, list: UnsafeBufferPointer<UInt8>) {
            used.insert(owner)
            var detail: UInt64 = 0
            // A prefix key without positions keeps no list (an empty one); a token always has one.
            if segments == .tokens || !list.isEmpty {
                detail = LinkTally.positionsDigest(PositionLists.decode(list, into: &positions) ? positions : nil)
            }
            found.add(owner: owner, entry: entry, detail: detail)
        }
        try segments.forEachLink(in: db, tally)
        try PostingRuns(segments: segments).forEachLink(in: db, tally)
        if found != expected {
            problems.add(
                "postings",
                "the postings of \(name) (\(found.links) links) disagree with the documents' (\(expected.links))")
        }
        let unused = owners.subtracting(used).count
        if unused > 0 { problems.add("unused", "\(unused) \(name) belong to no entry") }
        try checkRecentOrder(segments, name: name, in: db, problems: &problems)
    }

    /// Each owner with recent segments has segments, and its recent ones start above the last
    /// entry of those (``PostingSegments+Recent``): readers read them in that order.
    private static func checkRecentOrder(
        _ segments: PostingSegments, name: String, in db: Database, problems: inout ProblemLog
    ) throws {
        let misplaced = try segments.ownersWithRecentOutOfOrder(in: db)
        if misplaced > 0 {
            problems.add("postings", "\(misplaced) \(name) have recent postings that do not follow their others")
        }
    }
}
