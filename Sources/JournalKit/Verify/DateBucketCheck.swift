import GRDB

/// The documents by day (``DateBuckets``) against the entries' dates: each day holds the
/// documents dated in it, in the order of their dates (the order searches list them in).
enum DateBucketCheck {
    static func run(expected: LinkTally, in db: Database, problems: inout ProblemLog) throws {
        var found = LinkTally()
        var unordered: [Int64] = []
        for (day, runs) in try DateBuckets.all(in: db).sorted(by: { $0.key < $1.key }) {
            var previous: DateBuckets.Dated?
            var ordered = true
            try DateBuckets.forEachRun(in: runs) { run in
                for number in run {
                    found.add(owner: day, entry: number)
                    guard ordered, let date = try SearchStore.date(of: number, in: db) else { continue }
                    if let previous, !DateBuckets.isOlder(previous, than: (number, date)) { ordered = false }
                    previous = (number, date)
                }
            }
            if !ordered { unordered.append(day) }
        }
        if found != expected {
            problems.add(
                "days", "the documents by day (\(found.links)) disagree with the entries' dates (\(expected.links))")
        }
        if let first = unordered.first {
            problems.add(
                "days",
                "\(unordered.count) days' documents are not in the order of their dates (the first: day \(first) since 1970)"
            )
        }
    }
}
