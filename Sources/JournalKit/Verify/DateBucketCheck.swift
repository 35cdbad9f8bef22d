import GRDB

/// The documents by day (``DateBuckets``) against the entries' dates.
enum DateBucketCheck {
    static func run(expected: LinkTally, in db: Database, problems: inout ProblemLog) throws {
        var found = LinkTally()
        for (day, runs) in try DateBuckets.all(in: db) {
            DateBuckets.forEachRun(in: runs) { run in for number in run { found.add(owner: day, entry: number) } }
        }
        if found != expected {
            problems.add(
                "days", "the documents by day (\(found.links)) disagree with the entries' dates (\(expected.links))")
        }
    }
}
