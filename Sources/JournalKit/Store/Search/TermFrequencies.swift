import Foundation
import GRDB

/// What relevance reads of the search store beside the postings' entries: how often a token
/// stands in each entry, the length of its position list.
extension SearchStore {
    /// Adds to `frequencies[i]`, for the `i`th member of `documents` (`ranks` of it, `range` its
    /// bounds), how many of its words are one of `tokens`: the positions the tokens' postings
    /// keep for it, counted without decoding them. A single token's segments are read within
    /// the range; many tokens' all at once.
    static func addFrequencies(
        ofTokens tokens: [Int64], in ranks: DocumentSet.Ranks, within range: ClosedRange<Int64>,
        to frequencies: inout [UInt32], in db: Database
    ) throws {
        let add = { (number: Int64, list: UnsafeBufferPointer<UInt8>) in
            // A varint ends with the one byte of it whose high bit is clear.
            if let rank = ranks.rank(of: number) { frequencies[rank] += UInt32(list.count { $0 < 0x80 }) }
        }
        if tokens.count == 1 {
            try PostingSegments.tokens.forEachPositionList(owner: tokens[0], within: range, in: db, add)
        } else {
            try PostingSegments.tokens.forEachPositionList(owners: tokens, in: db, add)
        }
    }
}
