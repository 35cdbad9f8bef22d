import Foundation
import GRDB

/// What relevance reads of the search store beside the postings' entries: how often a token
/// stands in each entry, the length of its position list.
extension SearchStore {
    /// Adds to `frequencies[i]`, for the `i`th member of `documents` (`ranks` of it, `range` its
    /// bounds), how many of its words are one of the tokens of `owners`: tokens, or prefix keys
    /// that keep positions, each of which stands for the tokens it starts (one list to read
    /// where a short word's tokens are many). The positions their postings keep for it, counted
    /// without decoding them.
    static func addFrequencies(
        of owners: [Int64], in segments: PostingSegments, ranks: DocumentSet.Ranks, within range: ClosedRange<Int64>,
        to frequencies: inout [UInt32], in db: Database
    ) throws {
        try segments.forEachPositionList(owners: owners, within: range, in: db) { number, list in
            // A varint ends with the one byte of it whose high bit is clear.
            if let rank = ranks.rank(of: number) { frequencies[rank] += UInt32(list.count { $0 < 0x80 }) }
        }
    }
}
