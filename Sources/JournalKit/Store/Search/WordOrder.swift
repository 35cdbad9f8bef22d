import Foundation

/// A document's words in order, as the search store keeps them beside its tokens, so that a
/// phrase is checked without reading the entry's text or breaking it into words again.
///
/// Each word is the rank of its token among the document's token ids, ascending as
/// `document.tokens` holds them, as a varint: a document of fewer than 128 distinct tokens
/// takes a byte a word, whatever the ids.
///
/// Invariant: `words` of a document decodes to one rank per word of `words(canonical(text))`,
/// each below the number of its tokens.
enum WordOrder {
    /// The document's token ids ascending, and its words as ranks among them, from its token
    /// ids in order of first appearance and its words as positions in that order.
    static func encode(tokenIDs: [Int64], order: [Int32]) -> (sortedIDs: [Int64], words: Data) {
        let byID = tokenIDs.indices.sorted { tokenIDs[$0] < tokenIDs[$1] }
        var rank = [Int32](repeating: 0, count: tokenIDs.count)
        for (position, index) in byID.enumerated() { rank[index] = Int32(position) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(order.count)
        for position in order { Varint.append(UInt64(rank[Int(position)]), to: &bytes) }
        return (byID.map { tokenIDs[$0] }, Data(bytes))
    }

    /// The ranks of `words`, in order, into `ranks` (emptied first).
    static func decode(_ words: Data, into ranks: inout [Int32]) {
        ranks.removeAll(keepingCapacity: true)
        words.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            while let rank = Varint.read(bytes, at: &position) { ranks.append(Int32(truncatingIfNeeded: rank)) }
        }
    }
}
