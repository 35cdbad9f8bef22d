import Foundation
import GRDB

/// What relevance reads of the search store beside the postings' entries: how often a token
/// stands in each entry, the length of its position list.
extension SearchStore {
    /// Adds to `frequencies[i]`, for the `i`th member of `documents` (`ranks` of it, `range` its
    /// bounds), how many of its words are one of `tokens`: the positions the tokens' postings
    /// keep for it, counted without decoding them.
    static func addFrequencies(
        ofTokens tokens: [Int64], in ranks: DocumentSet.Ranks, within range: ClosedRange<Int64>,
        to frequencies: inout [UInt32], in db: Database
    ) throws {
        try PostingSegments.tokens.forEachPositionList(owners: tokens, within: range, in: db) { number, list in
            // A varint ends with the one byte of it whose high bit is clear.
            if let rank = ranks.rank(of: number) { frequencies[rank] += UInt32(list.count { $0 < 0x80 }) }
        }
    }
}
