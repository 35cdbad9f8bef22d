import Foundation

/// Which page of the results to return, in which order.
public struct PageRequest: Sendable, Equatable, Codable {
    /// At most this many entries; 0 means all of them.
    public let limit: Int
    /// Entries to skip first.
    public let offset: Int
    /// The order the results are paged in.
    public let order: SearchOrder

    /// A page of `limit` entries (0: all of them) after skipping `offset`, in `order`; a
    /// negative value is a usage error.
    public init(limit: Int = 20, offset: Int = 0, order: SearchOrder = .newest) throws(JournalError) {
        guard limit >= 0 else { throw .usage("the limit must be 0 (all) or more, not \(limit)") }
        guard offset >= 0 else { throw .usage("the offset must be 0 or more, not \(offset)") }
        self.init(checkedLimit: limit, offset: offset, order: order)
    }

    private init(checkedLimit limit: Int, offset: Int, order: SearchOrder) {
        self.limit = limit
        self.offset = offset
        self.order = order
    }

    /// Decodes a page, refusing a negative limit or offset as the initializer does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                limit: container.decode(Int.self, forKey: .limit), offset: container.decode(Int.self, forKey: .offset),
                order: container.decodeIfPresent(SearchOrder.self, forKey: .order) ?? .newest)
        } catch let error as JournalError {
            throw DecodingError.dataCorruptedError(forKey: .limit, in: container, debugDescription: error.message)
        }
    }

    /// The newest 20: what a search shows first.
    public static let first = PageRequest(checkedLimit: 20, offset: 0, order: .newest)

    /// The value for SQL's LIMIT: -1 is SQLite's "no limit".
    var sqlLimit: Int { limit == 0 ? -1 : limit }

    /// The direction of SQL's ORDER BY for a date order: `DESC` newest first, `ASC` oldest.
    var sqlDirection: String { order == .oldest ? "ASC" : "DESC" }
}

extension PageRequest {
    /// How many of `total` results, newest first, the page needs: up to its end, or all of them
    /// for a limit of 0 (an offset and a limit that add up past `Int.max`: all of them too).
    package func end(of total: Int) -> Int {
        limit == 0 || offset >= total ? total : offset + min(limit, total - offset)
    }

    /// The page's part of `results`, which hold them in the page's order at least up to the
    /// page's end.
    package func cut<Element>(_ results: [Element]) -> [Element] {
        Array(results.dropFirst(offset).prefix(limit == 0 ? Int.max : limit))
    }

    /// The page's part of every result, given newest first: in the page's date order.
    package func cut<Element>(everyNewestFirst results: [Element]) -> [Element] {
        cut(order == .oldest ? results.reversed() : results)
    }
}
