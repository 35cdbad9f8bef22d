import Foundation
import GRDB

/// Whether a document holds a phrase: its words side by side, each but the last equal to its
/// word and the last a prefix. Read from the document's words in order (``WordOrder``), one
/// row per candidate, so the entry's text is neither read nor broken into words again.
struct PhraseCheck {
    /// The token id of each word but the last.
    private let exact: [Int64]
    /// The ids of the tokens the last word starts.
    private let last: Set<Int64>
    private let statement: Statement
    private var ranks: [Int32] = []
    private var lastRanks: [Bool] = []

    /// Nil when no document can hold the phrase (a word but the last is no token, or the last
    /// starts none).
    init?(exact: [Int64?], lastTokens: [Int64], in db: Database) throws {
        guard !lastTokens.isEmpty, case let ids = exact.compactMap({ $0 }), ids.count == exact.count else { return nil }
        self.exact = ids
        last = Set(lastTokens)
        statement = try db.cachedStatement(sql: "SELECT tokens, words FROM document WHERE id = ?")
    }

    /// The candidates that hold the phrase.
    mutating func filter(_ candidates: DocumentSet, maximum: Int64) throws -> DocumentSet {
        var holding = DocumentSet(maximum: maximum)
        for number in candidates.members where try holds(number) { holding.insert(number) }
        return holding
    }

    private mutating func holds(_ number: Int64) throws -> Bool {
        guard let row = try Row.fetchOne(statement, arguments: [number]) else { return false }
        let ids = DeltaList.decode(row[0])
        // The ranks of the exact words among the document's ids, and which ranks the last may be.
        var exactRanks: [Int32] = []
        for id in exact {
            guard let rank = binarySearch(ids, id) else { return false }
            exactRanks.append(Int32(rank))
        }
        lastRanks = ids.map(last.contains)
        guard lastRanks.contains(true) else { return false }
        WordOrder.decode(row[1], into: &ranks)
        let length = exactRanks.count + 1
        guard ranks.count >= length else { return false }
        for start in 0...(ranks.count - length) where ranks[start] == exactRanks[0] {
            var matched = true
            for offset in 1..<exactRanks.count where ranks[start + offset] != exactRanks[offset] {
                matched = false
                break
            }
            let lastRank = Int(ranks[start + length - 1])
            if matched, lastRank < lastRanks.count, lastRanks[lastRank] { return true }
        }
        return false
    }

    private func binarySearch(_ ids: [Int64], _ id: Int64) -> Int? {
        var (low, high) = (0, ids.count)
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}
