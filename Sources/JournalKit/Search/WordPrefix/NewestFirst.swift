import Foundation
import GRDB

/// Orders matching documents newest first (by date, then by entry number) and cuts the
/// requested page, choosing the cheaper of two plans: walk the documents from the newest (of
/// the filter's dates) until the page is full (when matches are dense), or find the date of
/// every match and sort (when they are few). With a ``DateOrder`` in memory both plans read
/// nothing; without, the walk reads the days' documents a run at a time and the sort a row per
/// match.
enum NewestFirst {
    /// What a lookup of one document counts for, in steps of a walk along the rows in order:
    /// a random read from disk against reads in order.
    static let stepsPerLookup = 16.0

    /// The page of `matching`. `dated` bounds the dates of every match (a filter's `from` and
    /// `until`), and `candidates` is about how many documents those dates hold.
    static func page(
        of matching: DocumentSet, maximum: Int64, page: PageRequest, dated: (from: Int64?, until: Int64?) = (nil, nil),
        candidates: Int? = nil, order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer {
        let total = matching.count
        let wanted = page.end(of: total)
        guard wanted > page.offset else { return StrategyAnswer(total: total, numbers: []) }
        if page.order == .oldest {
            return StrategyAnswer(
                total: total, numbers: page.cut(everyNewestFirst: try all(matching.members, order: order, in: db)))
        }
        let walk = walkLength(wanted: wanted, total: total, candidates: candidates ?? Int(maximum))
        let numbers: [Int64]
        if let order {
            // In memory a walk's step tests a bit, and the sort costs `total × log(total)`.
            numbers =
                walk < Double(total) * log2(Double(total) + 1)
                ? try order.walk(wanted: wanted, dated: dated, in: db, where: matching.contains)
                : order.newest(wanted, of: matching.members)
        } else {
            // A lookup descends the document table to a page of its own: in memory a few steps'
            // worth, from disk a random read where the walk reads a day's rows in order.
            numbers =
                walk < Self.stepsPerLookup * Double(total)
                ? try SearchStore.newestDocuments(
                    wanted, through: maximum, dated: dated, where: matching.contains, in: db)
                : try SearchStore.newestFirst(matching.members, in: db)
        }
        return StrategyAnswer(total: total, numbers: page.cut(numbers))
    }

    /// Every one of `numbers`, newest first: sorted by their places in memory, or by the store.
    static func all(_ numbers: [Int64], order: DateOrder?, in db: Database) throws -> [Int64] {
        try order?.newest(numbers.count, of: numbers) ?? SearchStore.newestFirst(numbers, in: db)
    }

    /// The page of `total` matches numbered `maximum` or below that `contains` tells apart
    /// without their set: always by walking, which the caller has found short
    /// (``walkIsShort(wanted:total:documents:)``).
    static func page(
        total: Int, maximum: Int64, page: PageRequest, dated: (from: Int64?, until: Int64?) = (nil, nil),
        where contains: (Int64) throws -> Bool,
        order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer {
        let wanted = page.end(of: total)
        guard wanted > page.offset else { return StrategyAnswer(total: total, numbers: []) }
        let numbers =
            try order?.walk(wanted: wanted, dated: dated, in: db, where: contains)
            ?? SearchStore.newestDocuments(wanted, through: maximum, dated: dated, where: contains, in: db)
        return StrategyAnswer(total: total, numbers: page.cut(numbers))
    }

    /// Whether walking from the newest document finds `wanted` of `total` matches among
    /// `documents` in fewer steps than an eighth of `total`: then testing each step costs less
    /// than reading every match.
    static func walkIsShort(wanted: Int, total: Int, documents: Int) -> Bool {
        total > 0 && 8 * walkLength(wanted: wanted, total: total, candidates: documents) < Double(total)
    }

    /// About how many documents a walk passes to find `wanted` of `total` matches spread over
    /// `candidates`.
    private static func walkLength(wanted: Int, total: Int, candidates: Int) -> Double {
        Double(wanted) * Double(candidates) / Double(total)
    }
}
