import Foundation
import GRDB

/// Which documents hold a phrase: its words side by side, each but the last equal to its word
/// and the last a prefix. Answered from the positions the postings keep: a reader per word in
/// entry order (``PositionCursor``), and per candidate a merge of position lists looking for a
/// start `p` with word `i` at `p + i`, as FTS5 matches a phrase. No document row is read.
///
/// The last word may start many tokens (a prefix typed so far): up to ``cursorLimit`` get a
/// reader each; more are read one after another into the candidates' lists.
enum PhraseMatch {
    /// Tokens of the last word up to which each gets a reader of its own.
    static let cursorLimit = 16

    /// The candidates that hold the phrase of `exact` tokens (all but the last word, in order)
    /// followed by one of `lastTokens`.
    static func filter(
        _ candidates: DocumentSet, exact: [Int64], lastTokens: [Int64], maximum: Int64, in db: Database
    ) throws -> DocumentSet {
        var holding = DocumentSet(maximum: maximum)
        try forEachCandidate(candidates, exact: exact, lastTokens: lastTokens, in: db) { number, lists, last in
            if startsPhrase(lists, then: last) { holding.insert(number) }
        }
        return holding
    }

    /// How many times each candidate holds the phrase (occurrences that overlap each count),
    /// for those that hold it.
    static func occurrences(
        in candidates: DocumentSet, exact: [Int64], lastTokens: [Int64], in db: Database
    ) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        try forEachCandidate(candidates, exact: exact, lastTokens: lastTokens, in: db) { number, lists, last in
            let count = occurrences(lists, then: last)
            if count > 0 { counts[number] = count }
        }
        return counts
    }

    /// Calls `body` with each candidate holding every word, and the positions of each there.
    private static func forEachCandidate(
        _ candidates: DocumentSet, exact: [Int64], lastTokens: [Int64], in db: Database,
        _ body: (Int64, [[UInt32]], [UInt32]) -> Void
    ) throws {
        guard let range = candidates.bounds, !lastTokens.isEmpty else { return }
        var readers = try exact.map { try PositionCursor(token: $0, within: range, in: db) }
        var last = try LastWord(tokens: lastTokens, candidates: candidates, within: range, in: db)
        var lists = [[UInt32]](repeating: [], count: exact.count)
        var lastList: [UInt32] = []
        next: for number in candidates.members {
            for index in readers.indices where try !readers[index].positions(at: number, into: &lists[index]) {
                continue next
            }
            guard try last.positions(at: number, into: &lastList) else { continue }
            body(number, lists, lastList)
        }
    }

    /// How many positions `p` of the first list have each next list holding `p + i`.
    static func occurrences(_ lists: [[UInt32]], then last: [UInt32]) -> Int {
        let all = lists + [last]
        return all[0].count { start in
            (1..<all.count).allSatisfy { word in binarySearch(all[word], start + UInt32(word)) }
        }
    }

    private static func binarySearch(_ list: [UInt32], _ value: UInt32) -> Bool {
        var (low, high) = (0, list.count)
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low] == value
    }

    /// Whether some position `p` of the first list has each next list holding `p + i`, the
    /// last one included: one pass over each, all being ascending.
    static func startsPhrase(_ lists: [[UInt32]], then last: [UInt32]) -> Bool {
        let all = lists + [last]
        guard let first = all.first else { return false }
        var next = [Int](repeating: 0, count: all.count)
        candidate: for start in first {
            for word in 1..<all.count {
                let wanted = start + UInt32(word)
                let list = all[word]
                while next[word] < list.count, list[next[word]] < wanted { next[word] += 1 }
                guard next[word] < list.count else { return false }
                if list[next[word]] != wanted { continue candidate }
            }
            return true
        }
        return false
    }

    /// The positions of any of the last word's tokens in each candidate.
    private struct LastWord {
        private var readers: [PositionCursor] = []
        private var collected: [Int64: [UInt32]] = [:]
        private var scratch: [UInt32] = []

        init(tokens: [Int64], candidates: DocumentSet, within range: ClosedRange<Int64>, in db: Database) throws {
            if tokens.count <= PhraseMatch.cursorLimit {
                readers = try tokens.map { try PositionCursor(token: $0, within: range, in: db) }
                return
            }
            var list: [UInt32] = []
            for token in tokens {
                let statement = try PostingSegments.tokens.segments(
                    holding: range, owner: token, columns: "documents, positions", in: db)
                let rows = try Row.fetchCursor(statement)
                while let row = try rows.next() {
                    let positions = row[1] as Data
                    try positions.withUnsafeBytes { raw in
                        let bytes = raw.bindMemory(to: UInt8.self)
                        var offset = 0
                        var damaged = false
                        DeltaList.forEach(in: row[0] as Data) { number in
                            guard let encoded = PositionLists.nextList(in: bytes, at: &offset) else {
                                damaged = true
                                return
                            }
                            guard candidates.contains(number) else { return }
                            if !PositionLists.decode(encoded, into: &list) { damaged = true }
                            collected[number, default: []] += list
                        }
                        if damaged {
                            throw JournalError.store("a posting segment's positions are damaged: run journal reindex")
                        }
                    }
                }
            }
        }

        /// The positions of the word's tokens in entry `number`, ascending, into `list`; false
        /// when none is there. Entries must be asked for in ascending order.
        mutating func positions(at number: Int64, into list: inout [UInt32]) throws -> Bool {
            list.removeAll(keepingCapacity: true)
            if readers.isEmpty {
                guard let found = collected[number] else { return false }
                list = found.count > 1 ? found.sorted() : found
                return true
            }
            for index in readers.indices where try readers[index].positions(at: number, into: &scratch) {
                list += scratch
            }
            if readers.count > 1 { list.sort() }
            return !list.isEmpty
        }
    }
}
