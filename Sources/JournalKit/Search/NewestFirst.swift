import Foundation
import GRDB

/// Orders matching documents newest first (by date, then by entry number) and cuts the
/// requested page, choosing the cheaper of two plans: walk the documents from the newest (of
/// the filter's dates) until the page is full (when matches are dense), or find the date of
/// every match and sort (when they are few). With a ``DateOrder`` in memory both plans read
/// nothing; without, the walk reads the date index and the sort a row per match.
enum NewestFirst {
    /// The page of `matching`. `dated` bounds the dates of every match (a filter's `from` and
    /// `until`), and `candidates` is about how many documents those dates hold.
    static func page(
        of matching: DocumentSet, maximum: Int64, page: PageRequest, dated: (from: Int64?, until: Int64?) = (nil, nil),
        candidates: Int? = nil, order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer {
        let total = matching.count
        let wanted = page.limit == 0 ? total : min(total, page.offset + page.limit)
        guard total > 0, wanted > page.offset else { return StrategyAnswer(total: total, page: []) }
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
            // worth, from disk a random read where the walk reads the date index in order.
            // Counted as 16 steps (at a million entries, against 4: in-memory median 1.21 →
            // 1.17 ms over 70 typed prefixes, a cold key's worst 119 → 76 ms).
            numbers =
                walk < 16 * Double(total)
                ? try walkingDateIndex(wanted: wanted, dated: dated, where: matching.contains, in: db)
                : try sortingMatches(matching, in: db)
        }
        return try cut(numbers, total: total, page: page, in: db)
    }

    /// The page of `total` matches that `contains` tells apart without their set: always by
    /// walking, which the caller has found short (``walkIsShort(wanted:total:documents:)``).
    static func page(
        total: Int, page: PageRequest, dated: (from: Int64?, until: Int64?) = (nil, nil), where contains: (Int64) throws -> Bool,
        order: DateOrder?, in db: Database
    ) throws -> StrategyAnswer {
        let wanted = page.limit == 0 ? total : min(total, page.offset + page.limit)
        guard total > 0, wanted > page.offset else { return StrategyAnswer(total: total, page: []) }
        let numbers =
            try order?.walk(wanted: wanted, dated: dated, in: db, where: contains)
            ?? walkingDateIndex(wanted: wanted, dated: dated, where: contains, in: db)
        return try cut(numbers, total: total, page: page, in: db)
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

    private static func walkingDateIndex(
        wanted: Int, dated: (from: Int64?, until: Int64?), where contains: (Int64) throws -> Bool, in db: Database
    ) throws -> [Int64] {
        var found: [Int64] = []
        let rows = try Int64.fetchCursor(
            db, sql: "SELECT id FROM document WHERE date >= ? AND date < ? ORDER BY date DESC, id DESC",
            arguments: [dated.from ?? Int64.min, dated.until ?? Int64.max])
        while found.count < wanted, let number = try rows.next() {
            if try contains(number) { found.append(number) }
        }
        return found
    }

    private static func sortingMatches(_ matching: DocumentSet, in db: Database) throws -> [Int64] {
        var dated: [(date: Int64, number: Int64)] = []
        let members = matching.members
        dated.reserveCapacity(members.count)
        let lookup = try db.cachedStatement(sql: "SELECT date FROM document WHERE id = ?")
        for number in members {
            if let date = try Int64.fetchOne(lookup, arguments: [number]) { dated.append((date, number)) }
        }
        dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.number > $1.number }
        return dated.map(\.number)
    }

    /// The page's part of `numbers` (newest first, at least up to the page's end), as URIs:
    /// entries are named by URI across the two stores.
    private static func cut(_ numbers: [Int64], total: Int, page: PageRequest, in db: Database) throws -> StrategyAnswer {
        let wanted = page.limit == 0 ? numbers.count : page.offset + page.limit
        let pageNumbers = numbers.dropFirst(page.offset).prefix(max(0, wanted - page.offset))
        let lookup = try db.cachedStatement(sql: "SELECT uri FROM document WHERE id = ?")
        let uris = try pageNumbers.compactMap { number in try String.fetchOne(lookup, arguments: [number]).flatMap(EntryID.init(uri:)) }
        return StrategyAnswer(total: total, page: uris)
    }
}
