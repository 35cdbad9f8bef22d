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

        /// The exact words' distinct tokens, each read once however many words are it, and
        /// which of them each word is.
        var distinctExact: (tokens: [Int64], ofWord: [Int]) {
            var distinct: [Int64] = []
            let wordToken = exact.map { token in
                if let index = distinct.firstIndex(of: token) { return index }
                distinct.append(token)
                return distinct.count - 1
            }
            return (distinct, wordToken)
        }
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
        /// in one of its tokens' lists; with `stoppingAtFirst`, 0 or 1. Each list is read
        /// once, front to back, as the starts ascend.
        func occurrences(stoppingAtFirst: Bool) -> Int {
            let words = wordToken.count
            let lists = lastStarts.count - 1
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (words + lists)) { cursors in
                // Word w reads exact[next[w]..<end[w]]; the last word's token t reads
                // last[next[words + t]..<end[words + t]].
                for (word, token) in wordToken.enumerated() {
                    cursors[word] = exactStarts[token]
                    cursors[words + lists + word] = exactStarts[token + 1]
                }
                for token in 0..<lists {
                    cursors[words + token] = lastStarts[token]
                    cursors[2 * words + lists + token] = lastStarts[token + 1]
                }
                let end = words + lists
                var count = 0
                exact.withUnsafeBufferPointer { exact in
                    last.withUnsafeBufferPointer { last in
                        candidate: for index in cursors[0]..<cursors[end] {
                            let start = exact[index]
                            for word in 1..<words {
                                let wanted = start + UInt32(word)
                                while cursors[word] < cursors[end + word], exact[cursors[word]] < wanted {
                                    cursors[word] += 1
                                }
                                guard cursors[word] < cursors[end + word] else { return }
                                if exact[cursors[word]] != wanted { continue candidate }
                            }
                            let wanted = start + UInt32(words)
                            for token in words..<end {
                                while cursors[token] < cursors[end + token], last[cursors[token]] < wanted {
                                    cursors[token] += 1
                                }
                                if cursors[token] < cursors[end + token], last[cursors[token]] == wanted {
                                    count += 1
                                    if stoppingAtFirst { return }
                                    continue candidate
                                }
                            }
                        }
                    }
                }
                return count
            }
        }
    }

    /// Calls `body` with each candidate holding every word, and the positions of each there.
    /// A token is read once however many words are it.
    private static func forEachCandidate(
        _ candidates: DocumentSet, _ phrase: Tokens, in db: Database, _ body: (Int64, CandidatePositions) -> Void
    ) throws {
        guard let range = candidates.bounds, !phrase.exact.isEmpty, !phrase.last.isEmpty else { return }
        let (distinct, wordToken) = phrase.distinctExact
        var readers = try distinct.enumerated().map { reader, token in
            try PositionCursor(token: token, within: range, reader: reader, in: db)
        }
        var last = try LastWord(
            tokens: SearchStore.tokens(phrase.last, heldByAnyOf: candidates, in: db), whole: phrase.lastWhole,
            exact: distinct, candidates: candidates, within: range, in: db)
        var positions = CandidatePositions(wordToken: wordToken)
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

    /// A phrase checked one entry at a time, in any order: the entry's positions of the exact
    /// words read from the segment of each token that holds the entry (kept for the entries
    /// after it there, ``PostingMembership``), and only where those stand side by side, the
    /// positions of the last word's tokens that the entry's document lists, until one stands
    /// next. A few entries then cost a few reads each, however many tokens the last word starts;
    /// many cost more than ``filter(_:_:maximum:in:)`` does in one pass.
    struct EntryCheck {
        /// The exact words' distinct tokens, and which of them each word is.
        private let distinct: [Int64]
        private let wordToken: [Int]
        private let lastTokens: Set<Int64>
        private var exact: [PostingMembership]
        private var lists: [[UInt32]]
        private var list: [UInt32] = []

        init(_ phrase: Tokens, in db: Database) {
            (distinct, wordToken) = phrase.distinctExact
            lastTokens = Set(phrase.last)
            exact = distinct.map { PostingMembership(.tokens, owner: $0, positions: true, in: db) }
            lists = Array(repeating: [], count: distinct.count)
        }

        /// Whether entry `number` holds the phrase.
        mutating func holds(at number: Int64, in db: Database) throws -> Bool {
            guard !distinct.isEmpty, !lastTokens.isEmpty else { return false }
            let entry = number...number
            for index in distinct.indices {
                lists[index].removeAll(keepingCapacity: true)
                guard try exact[index].positions(at: number, appendingTo: &lists[index]) else { return false }
            }
            // Where the last word would stand: after each start of the exact words side by side.
            var wanted = lists[wordToken[0]].map { $0 + UInt32(wordToken.count) }
            for (word, token) in wordToken.enumerated().dropFirst() {
                let offset = UInt32(wordToken.count - word)
                wanted = Self.common(wanted, lists[token], offset: offset)
                if wanted.isEmpty { return false }
            }
            for token in try SearchStore.tokens(heldBy: number, in: db) where lastTokens.contains(token) {
                if let shared = distinct.firstIndex(of: token) {
                    if !Self.common(wanted, lists[shared], offset: 0).isEmpty { return true }
                    continue
                }
                list.removeAll(keepingCapacity: true)
                var cursor = try PositionCursor(token: token, within: entry, reader: 0, in: db)
                if try cursor.positions(at: number, appendingTo: &list), !Self.common(wanted, list, offset: 0).isEmpty {
                    return true
                }
            }
            return false
        }

        /// The values of `wanted` that are a value of `list` plus `offset`; both ascending.
        private static func common(_ wanted: [UInt32], _ list: [UInt32], offset: UInt32) -> [UInt32] {
            var (result, index) = ([UInt32](), 0)
            for value in wanted {
                while index < list.count, list[index] + offset < value { index += 1 }
                if index < list.count, list[index] + offset == value { result.append(value) }
            }
            return result
        }
    }

    /// The positions of each of the last word's tokens in each candidate: its own token, when
    /// it is also one of the exact words, from theirs; up to ``cursorLimit`` others through a
    /// reader each; of more, all but its own read beforehand into one list per candidate.
    private struct LastWord {
        /// The index among the exact words' distinct tokens of the word's own token, if there.
        private var shared: Int?
        private var readers: [PositionCursor] = []
        private var collected: CollectedPositions?

        init(
            tokens: [Int64], whole: Int64?, exact: [Int64], candidates: DocumentSet, within range: ClosedRange<Int64>,
            in db: Database
        ) throws {
            shared = whole.flatMap { whole in tokens.contains(whole) ? exact.firstIndex(of: whole) : nil }
            let others = tokens.filter { shared == nil || $0 != whole }
            if others.count <= PhraseMatch.cursorLimit {
                readers = try others.enumerated().map { index, token in
                    try PositionCursor(token: token, within: range, reader: exact.count + index, in: db)
                }
                return
            }
            if shared == nil, let whole, tokens.contains(whole) {
                readers = [try PositionCursor(token: whole, within: range, reader: exact.count, in: db)]
            }
            collected = try CollectedPositions(
                tokens: others.filter { $0 != whole }, candidates: candidates, within: range, in: db)
        }

        /// Appends the lists of the word's tokens in entry `number` to `positions` (whose exact
        /// words' lists are read already); false when none is there. Entries must be asked for
        /// in ascending order.
        mutating func positions(at number: Int64, into positions: inout CandidatePositions) throws -> Bool {
            if let shared {
                positions.last += positions.exact[positions.exactStarts[shared]..<positions.exactStarts[shared + 1]]
                positions.lastStarts.append(positions.last.count)
            }
            for index in readers.indices where try readers[index].positions(at: number, appendingTo: &positions.last) {
                positions.lastStarts.append(positions.last.count)
            }
            if let collected, collected.append(at: number, to: &positions.last) {
                positions.lastStarts.append(positions.last.count)
            }
            return positions.lastStarts.count > 1
        }
    }

    /// The positions of many tokens in each candidate, merged into one ascending list per
    /// candidate: every token's lists read in one pass, kept by the candidate's rank
    /// (``DocumentSet/Ranks``) and then grouped by it (a counting sort), with no table keyed by
    /// entry.
    private struct CollectedPositions {
        private let ranks: DocumentSet.Ranks
        /// Candidate `r`'s positions are `positions[starts[r]..<starts[r + 1]]`, ascending.
        private var starts: [Int]
        private var positions: [UInt32]

        init(tokens: [Int64], candidates: DocumentSet, within range: ClosedRange<Int64>, in db: Database) throws {
            let ranks = DocumentSet.Ranks(candidates)
            var owners: [Int32] = []
            var found: [UInt32] = []
            var list: [UInt32] = []
            try PostingSegments.tokens.forEachPositionList(owners: tokens, within: range, in: db) { number, encoded in
                guard let rank = ranks.rank(of: number) else { return }
                guard PositionLists.decode(encoded, into: &list) else { throw PositionLists.damaged }
                found += list
                owners += repeatElement(Int32(rank), count: list.count)
            }
            var starts = [Int](repeating: 0, count: candidates.count + 1)
            for owner in owners { starts[Int(owner) + 1] += 1 }
            for index in 1..<starts.count { starts[index] += starts[index - 1] }
            var next = starts
            var positions = [UInt32](repeating: 0, count: found.count)
            for (owner, position) in zip(owners, found) {
                positions[next[Int(owner)]] = position
                next[Int(owner)] += 1
            }
            for rank in 0..<(starts.count - 1) where starts[rank + 1] - starts[rank] > 1 {
                positions[starts[rank]..<starts[rank + 1]].sort()
            }
            self.ranks = ranks
            self.starts = starts
            self.positions = positions
        }

        /// Appends the positions of candidate `number` to `list`; false when it has none.
        func append(at number: Int64, to list: inout [UInt32]) -> Bool {
            guard let rank = ranks.rank(of: number), starts[rank + 1] > starts[rank] else { return false }
            list += positions[starts[rank]..<starts[rank + 1]]
            return true
        }
    }
}
