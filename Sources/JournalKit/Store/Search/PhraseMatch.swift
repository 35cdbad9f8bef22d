import Foundation
import GRDB

/// Which documents hold a phrase: its words side by side, each but the last equal to its word
/// and the last a prefix. Answered from the positions the postings keep: a reader per word in
/// entry order (``PositionCursor``), and per candidate a merge of position lists looking for a
/// start `p` with word `i` at `p + i`, as FTS5 matches a phrase. No document row is read.
///
/// The last word may start many tokens (a prefix typed so far, or a short word): up to
/// ``cursorLimit`` get a reader each; of more, the word itself (often the most frequent) gets
/// one and the others are read one after another into the candidates' lists. Its tokens' lists
/// stay apart (a word is one token), so a position is looked up in each rather than merged.
enum PhraseMatch {
    /// Tokens of the last word up to which each gets a reader of its own.
    static let cursorLimit = 16

    /// A phrase's words as tokens: each but the last exactly, the last as the tokens it starts,
    /// among which `lastWhole` is its own (when the store has it).
    struct Tokens {
        let exact: [Int64]
        let last: [Int64]
        let lastWhole: Int64?
    }

    /// The candidates that hold the phrase.
    static func filter(
        _ candidates: DocumentSet, _ phrase: Tokens, maximum: Int64, in db: Database
    ) throws -> DocumentSet {
        var holding = DocumentSet(maximum: maximum)
        try forEachCandidate(candidates, phrase, in: db) { number, positions in
            if positions.occurrences(stoppingAtFirst: true) > 0 { holding.insert(number) }
        }
        return holding
    }

    /// Calls `body` with each candidate that holds the phrase, in ascending order, and how many
    /// times it holds it (occurrences that overlap each count).
    static func forEachOccurrenceCount(
        in candidates: DocumentSet, _ phrase: Tokens, in db: Database, _ body: (Int64, Int) -> Void
    ) throws {
        try forEachCandidate(candidates, phrase, in: db) { number, positions in
            let count = positions.occurrences(stoppingAtFirst: false)
            if count > 0 { body(number, count) }
        }
    }

    /// One candidate's positions of each word, in flat buffers reused from one to the next: the
    /// `i`th distinct token of the exact words has `exact[exactStarts[i]..<exactStarts[i + 1]]`,
    /// word `w` (of the exact ones) is distinct token `wordToken[w]`, and the last word's tokens'
    /// lists are likewise in `last`.
    struct CandidatePositions {
        let wordToken: [Int]
        var exact: [UInt32] = []
        var exactStarts: [Int] = [0]
        var last: [UInt32] = []
        var lastStarts: [Int] = [0]

        init(wordToken: [Int]) { self.wordToken = wordToken }

        mutating func removeAll() {
            exact.removeAll(keepingCapacity: true)
            exactStarts.removeAll(keepingCapacity: true)
            exactStarts.append(0)
            last.removeAll(keepingCapacity: true)
            lastStarts.removeAll(keepingCapacity: true)
            lastStarts.append(0)
        }

        /// How many starts `p` of the first word have word `i` at `p + i`, the last word's
        /// in one of its tokens' lists; with `stoppingAtFirst`, 0 or 1.
        func occurrences(stoppingAtFirst: Bool) -> Int {
            let words = exactStarts.count - 1
            var next = exactStarts
            var count = 0
            exact.withUnsafeBufferPointer { exact in
                last.withUnsafeBufferPointer { last in
                    candidate: for start in exact[exactStarts[0]..<exactStarts[1]] {
                        for word in 1..<words {
                            let wanted = start + UInt32(word)
                            let end = exactStarts[word + 1]
                            while next[word] < end, exact[next[word]] < wanted { next[word] += 1 }
                            guard next[word] < end else { return }
                            if exact[next[word]] != wanted { continue candidate }
                        }
                        let wanted = start + UInt32(words)
                        for token in 0..<(lastStarts.count - 1)
                        where Self.contains(last[lastStarts[token]..<lastStarts[token + 1]], wanted) {
                            count += 1
                            if stoppingAtFirst { return }
                            continue candidate
                        }
                    }
                }
            }
            return count
        }

        private static func contains(_ list: Slice<UnsafeBufferPointer<UInt32>>, _ value: UInt32) -> Bool {
            var (low, high) = (list.startIndex, list.endIndex)
            while low < high {
                let middle = (low + high) / 2
                if list[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low < list.endIndex && list[low] == value
        }
    }

    /// Calls `body` with each candidate holding every word, and the positions of each there.
    private static func forEachCandidate(
        _ candidates: DocumentSet, _ phrase: Tokens, in db: Database, _ body: (Int64, CandidatePositions) -> Void
    ) throws {
        guard let range = candidates.bounds, !phrase.exact.isEmpty, !phrase.last.isEmpty else { return }
        var readers = try phrase.exact.map { try PositionCursor(token: $0, within: range, in: db) }
        var last = try LastWord(
            tokens: phrase.last, whole: phrase.lastWhole, candidates: candidates, within: range, in: db)
        var positions = CandidatePositions()
        next: for number in candidates.members {
            positions.removeAll()
            for index in readers.indices {
                guard try readers[index].positions(at: number, appendingTo: &positions.exact) else { continue next }
                positions.exactStarts.append(positions.exact.count)
            }
            guard try last.positions(at: number, into: &positions) else { continue }
            body(number, positions)
        }
    }

    /// The positions of each of the last word's tokens in each candidate.
    private struct LastWord {
        private var readers: [PositionCursor] = []
        private var collected: [Int64: [UInt32]] = [:]

        init(
            tokens: [Int64], whole: Int64?, candidates: DocumentSet, within range: ClosedRange<Int64>, in db: Database
        ) throws {
            if tokens.count <= PhraseMatch.cursorLimit {
                readers = try tokens.map { try PositionCursor(token: $0, within: range, in: db) }
                return
            }
            if let whole, tokens.contains(whole) { readers = [try PositionCursor(token: whole, within: range, in: db)] }
            var list: [UInt32] = []
            for token in tokens where token != whole {
                try PostingSegments.tokens.forEachPositionList(owner: token, within: range, in: db) { number, encoded in
                    guard candidates.contains(number) else { return }
                    guard PositionLists.decode(encoded, into: &list) else { throw PositionLists.damaged }
                    collected[number, default: []] += list
                }
            }
        }

        /// Appends the lists of the word's tokens in entry `number` to `positions`; false when
        /// none is there. Entries must be asked for in ascending order.
        mutating func positions(at number: Int64, into positions: inout CandidatePositions) throws -> Bool {
            for index in readers.indices where try readers[index].positions(at: number, appendingTo: &positions.last) {
                positions.lastStarts.append(positions.last.count)
            }
            if let found = collected[number] {
                positions.last += found.sorted()
                positions.lastStarts.append(positions.last.count)
            }
            return positions.lastStarts.count > 1
        }
    }
}
