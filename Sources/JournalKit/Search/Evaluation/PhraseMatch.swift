import Foundation
import GRDB

/// Which documents hold a phrase: its words side by side, each but the last equal to its word
/// and the last a prefix. Answered from the positions the postings keep: a reader per word in
/// entry order (``PositionCursor``), and per candidate a merge of position lists looking for a
/// start `p` with word `i` at `p + i`, as FTS5 matches a phrase. Two exact words or more are
/// matched first in every candidate; the last word's lists are then read only in the candidates
/// where those stand side by side (unless the last word's own token is one of theirs), so that
/// a dense last word's segments between them are passed over undecoded.
///
/// The last word may start many tokens (a prefix typed so far, or a short word): up to
/// ``cursorLimit`` get a reader each, and their lists stay apart (a word is one token), so a
/// position is looked up in each rather than merged. A word of two code points that starts more
/// is read as one list, its prefix key's (``PostingOwner/keyLengthWithPositions``), and one of
/// one code point as the lists of its keys of two and of the tokens they don't cover, when
/// those are few. Of more otherwise, the candidates are first narrowed to those with the exact
/// words side by side, each keeping the places the last word would stand there; then the
/// tokens those candidates hold (read from their documents' rows when they are few) have their
/// lists read in one pass, and only those of the narrowed candidates decoded, each position
/// looked up among its candidate's places. A longer word of more than ``keyNarrowing`` tokens
/// is first matched as its key of two code points, one list, which leaves the candidates where
/// the key stands next.
enum PhraseMatch {
    /// Tokens of the last word up to which each gets a reader of its own.
    static let cursorLimit = 16
    /// Tokens of a longer last word past which its prefix key narrows the candidates
    /// (``Tokens/lastKey``): one list read where so many would each be looked up.
    static let keyNarrowing = 1_024

    /// A phrase's words as tokens: each but the last exactly, the last as the tokens it starts,
    /// among which `lastWhole` is its own (when the store has it).
    struct Tokens {
        let exact: [Int64]
        let last: [Int64]
        let lastWhole: Int64?
        /// The postings whose positions, together, are the last word's, when it starts more
        /// tokens than get a reader each and a few lists hold them: the prefix key with
        /// positions (``PostingOwner/keepsPositions(key:)``) that the word is, or for a word of
        /// one code point, the keys of two that start with it and the tokens none of them covers
        /// (``TokenRange/keyCover(of:limit:in:)``).
        var lastLists: [(owner: PostingOwner, id: Int64)]?
        /// For a last word longer than a key that keeps positions and starting more than
        /// ``keyNarrowing`` tokens, the id of that key it starts with: the word stands only where the
        /// key does, so the key's one list narrows the candidates before the word's tokens are
        /// read.
        var lastKey: Int64?

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
        try forEachHolding(candidates, phrase, stoppingAtFirst: true, in: db) { number, _ in holding.insert(number) }
        return holding
    }

    /// Calls `body` with each candidate that holds the phrase, in ascending order, and how many
    /// times it holds it (occurrences that overlap each count).
    static func forEachOccurrenceCount(
        in candidates: DocumentSet, _ phrase: Tokens, in db: Database, _ body: (Int64, Int) -> Void
    ) throws {
        try forEachHolding(candidates, phrase, stoppingAtFirst: false, in: db, body)
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

        /// Reads the exact words' positions in candidate `number` from their `readers` (one per
        /// distinct token), after emptying every list; false when one of them is not there.
        mutating func readExact(at number: Int64, from readers: inout [PositionCursor]) throws -> Bool {
            removeAll()
            for index in readers.indices {
                guard try readers[index].positions(at: number, appendingTo: &exact) else { return false }
                exactStarts.append(exact.count)
            }
            return true
        }

        mutating func removeAll() {
            exact.removeAll(keepingCapacity: true)
            exactStarts.removeAll(keepingCapacity: true)
            exactStarts.append(0)
            last.removeAll(keepingCapacity: true)
            lastStarts.removeAll(keepingCapacity: true)
            lastStarts.append(0)
        }

        /// Whether the exact words after the first stand side by side after `start` (word `i` at
        /// `start + i`), word `w` read from `exact[cursors[w]..<cursors[ends + w]]` and its
        /// cursor moved to the first position not below the one wanted; nil when a word's list
        /// runs out first, so that no later start can hold them either. Shared by the two walks
        /// of the starts below.
        @inline(__always)
        private static func exactWordsFollow(
            _ start: UInt32, words: Int, in exact: UnsafeBufferPointer<UInt32>,
            cursors: UnsafeMutableBufferPointer<Int>, ends: Int
        ) -> Bool? {
            for word in 1..<words {
                let wanted = start + UInt32(word)
                while cursors[word] < cursors[ends + word], exact[cursors[word]] < wanted { cursors[word] += 1 }
                guard cursors[word] < cursors[ends + word] else { return nil }
                if exact[cursors[word]] != wanted { return false }
            }
            return true
        }

        /// Appends to `places`, ascending, where the last word would stand: `p + w` for each
        /// start `p` of the first of the `w` exact words that has word `i` at `p + i`. Each list
        /// is read once, front to back, as the starts ascend.
        func lastWordPlaces(appendingTo places: inout [UInt32]) {
            let words = wordToken.count
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * words) { cursors in
                // Word w reads exact[cursors[w]..<cursors[words + w]].
                for (word, token) in wordToken.enumerated() {
                    cursors[word] = exactStarts[token]
                    cursors[words + word] = exactStarts[token + 1]
                }
                exact.withUnsafeBufferPointer { exact in
                    for index in cursors[0]..<cursors[words] {
                        let start = exact[index]
                        guard
                            let follow = Self.exactWordsFollow(
                                start, words: words, in: exact, cursors: cursors, ends: words)
                        else { return }
                        if follow { places.append(start + UInt32(words)) }
                    }
                }
            }
        }

        /// How many of `places` (ascending) the last word's lists hold: a position holds one
        /// token, so each place is in one list at most.
        func filledCount(of places: ArraySlice<UInt32>) -> Int {
            var count = 0
            for list in 0..<(lastStarts.count - 1) {
                var index = places.startIndex
                for position in last[lastStarts[list]..<lastStarts[list + 1]] {
                    while index < places.endIndex, places[index] < position { index += 1 }
                    guard index < places.endIndex else { break }
                    if places[index] == position { count += 1 }
                }
            }
            return count
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
                            guard
                                let follow = Self.exactWordsFollow(
                                    start, words: words, in: exact, cursors: cursors, ends: end)
                            else { return }
                            guard follow else { continue candidate }
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

    /// Calls `body` with each candidate that holds the phrase, in ascending order, and how many
    /// times (with `stoppingAtFirst`, 1). A token is read once however many words are it.
    private static func forEachHolding(
        _ candidates: DocumentSet, _ phrase: Tokens, stoppingAtFirst: Bool, in db: Database,
        _ body: (Int64, Int) -> Void
    ) throws {
        guard let range = candidates.bounds, !phrase.exact.isEmpty, !phrase.last.isEmpty else { return }
        if phrase.lastLists == nil, let key = phrase.lastKey {
            // The candidates with a token of the key where the word would stand, found from the
            // key's one list; then the word's tokens read only where those few can hold them.
            var keyed = phrase
            (keyed.lastLists, keyed.lastKey) = ([(.prefixKey, key)], nil)
            let narrowed = try filter(candidates, keyed, maximum: range.upperBound, in: db)
            try forEachHoldingByTokens(narrowed, phrase, stoppingAtFirst: stoppingAtFirst, in: db, body)
            return
        }
        // A few lists for the many tokens of the last word: its keys', which stand wherever one
        // of their tokens does.
        guard let lists = phrase.lastLists,
            var lastWord = try LastWord(
                lists: lists, whole: phrase.lastWhole, exact: phrase.distinctExact.tokens, within: range, in: db)
        else {
            try forEachHoldingByTokens(candidates, phrase, stoppingAtFirst: stoppingAtFirst, in: db, body)
            return
        }
        try forEachHolding(candidates, phrase, lastWord: &lastWord, stoppingAtFirst: stoppingAtFirst, in: db, body)
    }

    /// The exact words' readers, one per distinct token.
    private static func exactReaders(
        _ distinct: [Int64], within range: ClosedRange<Int64>, in db: Database
    ) throws -> [PositionCursor] {
        try distinct.enumerated().map { reader, token in
            try PositionCursor(token: token, within: range, reader: reader, in: db)
        }
    }

    /// ``forEachHolding(_:_:stoppingAtFirst:in:_:)`` with the last word's positions from `lastWord`:
    /// when the exact words are two or more, read only in the candidates where they stand side by
    /// side, found first (one exact word narrows nothing), unless the word's own token is an
    /// exact word's (read with theirs).
    private static func forEachHolding(
        _ candidates: DocumentSet, _ phrase: Tokens, lastWord: inout LastWord, stoppingAtFirst: Bool,
        in db: Database, _ body: (Int64, Int) -> Void
    ) throws {
        guard let range = candidates.bounds else { return }
        let (distinct, wordToken) = phrase.distinctExact
        var readers = try exactReaders(distinct, within: range, in: db)
        var positions = CandidatePositions(wordToken: wordToken)
        guard wordToken.count > 1, !lastWord.isAnExactWord else {
            for number in candidates.members where try positions.readExact(at: number, from: &readers) {
                guard try lastWord.positions(at: number, into: &positions) else { continue }
                let count = positions.occurrences(stoppingAtFirst: stoppingAtFirst)
                if count > 0 { body(number, count) }
            }
            return
        }
        var places: [UInt32] = []
        var waiting = PlacesToFill(maximum: range.upperBound)
        for number in candidates.members where try positions.readExact(at: number, from: &readers) {
            places.removeAll(keepingCapacity: true)
            positions.lastWordPlaces(appendingTo: &places)
            waiting.add(number, places: places)
        }
        try waiting.fill(from: &lastWord, stoppingAtFirst: stoppingAtFirst, body)
    }

    /// The same, the last word's positions read from its tokens.
    private static func forEachHoldingByTokens(
        _ candidates: DocumentSet, _ phrase: Tokens, stoppingAtFirst: Bool, in db: Database,
        _ body: (Int64, Int) -> Void
    ) throws {
        guard let range = candidates.bounds else { return }
        let (distinct, wordToken) = phrase.distinctExact
        let lastTokens = try SearchStore.tokens(phrase.last, heldByAnyOf: candidates, in: db)
        guard
            var lastWord = try LastWord(
                tokens: lastTokens, whole: phrase.lastWhole, exact: distinct, within: range, in: db)
        else {
            var readers = try exactReaders(distinct, within: range, in: db)
            var positions = CandidatePositions(wordToken: wordToken)
            var places: [UInt32] = []
            var waiting = PlacesToFill(maximum: range.upperBound)
            for number in candidates.members where try positions.readExact(at: number, from: &readers) {
                places.removeAll(keepingCapacity: true)
                positions.lastWordPlaces(appendingTo: &places)
                waiting.add(number, places: places)
            }
            // The word's tokens narrowed again, to those the candidates left can hold.
            try waiting.fill(
                from: SearchStore.tokens(lastTokens, heldByAnyOf: waiting.candidates, in: db), in: db, body)
            return
        }
        try forEachHolding(candidates, phrase, lastWord: &lastWord, stoppingAtFirst: stoppingAtFirst, in: db, body)
    }

    /// The positions of each of the last word's tokens in each candidate, when they are few: its
    /// own token, when it is also one of the exact words, from theirs; up to ``cursorLimit``
    /// others through a reader each.
    private struct LastWord {
        /// The index among the exact words' distinct tokens of the word's own token, if there.
        private let shared: Int?
        private var readers: [PositionCursor]

        /// Nil when the word starts more than ``cursorLimit`` tokens besides a shared one.
        init?(tokens: [Int64], whole: Int64?, exact: [Int64], within range: ClosedRange<Int64>, in db: Database) throws
        {
            try self.init(lists: tokens.map { (.token, $0) }, whole: whole, exact: exact, within: range, in: db)
        }

        /// The word read from the positions of `lists` (tokens, or prefix keys that keep
        /// positions), a reader each after those of the `exact` words; nil when they are more
        /// than ``cursorLimit`` besides the word's own token, when it is one of them and an
        /// exact word too.
        init?(
            lists: [(owner: PostingOwner, id: Int64)], whole: Int64?, exact: [Int64], within range: ClosedRange<Int64>,
            in db: Database
        ) throws {
            let shared = whole.flatMap { whole in
                lists.contains { $0 == (.token, whole) } ? exact.firstIndex(of: whole) : nil
            }
            let others = lists.filter { shared == nil || !($0 == (.token, whole!)) }
            guard others.count <= PhraseMatch.cursorLimit else { return nil }
            self.shared = shared
            readers = try others.enumerated().map { index, list in
                try PositionCursor(
                    list.owner.segments, owner: list.id, within: range, reader: exact.count + index, in: db)
            }
        }

        /// Whether the word's own token is one of the exact words', read with theirs.
        var isAnExactWord: Bool { shared != nil }

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
            return positions.lastStarts.count > 1
        }
    }

    /// The candidates with the exact words side by side, each with the places the last word
    /// would stand there, filled from the lists of the last word's many tokens (read in one
    /// pass, only the candidates' decoded, each position looked up among its candidate's places;
    /// a position holds one token, so each place is filled once at most), or from its readers
    /// (``LastWord``), each moved only to those candidates.
    ///
    /// Invariant: candidate `r` (the `r`th added, ascending) has places
    /// `places[starts[r]..<starts[r + 1]]`, ascending.
    private struct PlacesToFill {
        private(set) var candidates: DocumentSet
        private var places: [UInt32] = []
        private var starts: [Int] = [0]

        init(maximum: Int64) { candidates = DocumentSet(maximum: maximum) }

        /// Adds candidate `number`, above every one added, with its places (none: left out).
        mutating func add(_ number: Int64, places more: [UInt32]) {
            guard !more.isEmpty else { return }
            candidates.insert(number)
            places += more
            starts.append(places.count)
        }

        /// Calls `body` with each candidate a token of `tokens` fills a place of, ascending, and
        /// how many of its places are filled (`filled[i]`: a token stands at `places[i]`).
        func fill(from tokens: [Int64], in db: Database, _ body: (Int64, Int) -> Void) throws {
            guard let range = candidates.bounds else { return }
            let ranks = DocumentSet.Ranks(candidates)
            var filled = [Bool](repeating: false, count: places.count)
            var list: [UInt32] = []
            try PostingSegments.tokens.forEachPositionList(owners: tokens, within: range, in: db) { number, encoded in
                guard let rank = ranks.rank(of: number) else { return }
                guard PositionLists.decode(encoded, into: &list) else { throw PositionLists.damaged }
                var index = starts[rank]
                for position in list {
                    while index < starts[rank + 1], places[index] < position { index += 1 }
                    guard index < starts[rank + 1] else { break }
                    if places[index] == position { filled[index] = true }
                }
            }
            for (rank, number) in candidates.members.enumerated() {
                let count = filled[starts[rank]..<starts[rank + 1]].count { $0 }
                if count > 0 { body(number, count) }
            }
        }

        /// The same, filled from the lists of `lastWord` (whose own token is no exact word's),
        /// read only in the candidates; with `stoppingAtFirst`, each counted once.
        func fill(from lastWord: inout LastWord, stoppingAtFirst: Bool, _ body: (Int64, Int) -> Void) throws {
            var positions = CandidatePositions(wordToken: [])
            for (rank, number) in candidates.members.enumerated() {
                positions.removeAll()
                guard try lastWord.positions(at: number, into: &positions) else { continue }
                let count = positions.filledCount(of: places[starts[rank]..<starts[rank + 1]])
                if count > 0 { body(number, stoppingAtFirst ? 1 : count) }
            }
        }
    }
}
