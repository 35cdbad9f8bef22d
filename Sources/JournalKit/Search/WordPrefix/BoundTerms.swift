import Foundation
import GRDB

/// A plan's words and phrases, each resolved once in a search's read transaction into what it
/// matches, as Tantivy's weight serves its scorer, its count and its explanation: a word's
/// postings (its tokens or its prefix key, as the strategy finds them), the tokens it starts
/// when relevance needs them, its documents within the restriction's window and across the
/// journal; a phrase's tokens, and its documents across the journal, with its occurrences in
/// each for relevance. The count, the page, the phrase match and relevance all ask here, so no
/// term is looked up twice.
///
/// Invariant: every value is read in one read transaction (`db`), so a term answers the same
/// wherever it is asked.
final class BoundTerms {
    /// A word's postings: the owners whose lists hold its entries.
    struct Postings {
        let segments: PostingSegments
        let owners: [Int64]
    }

    let db: Database
    let maximum: Int64
    private let lookup: WordPrefixSearch.Lookup
    private let counts: LookupCounts?
    private var postings: [String: Postings] = [:]
    private var tokens: [String: [Int64]] = [:]
    private var phrases: [[String]: PhraseMatch.Tokens?] = [:]
    /// Documents by term and window (nil: every segment).
    private var documents: [DocumentsKey: DocumentSet] = [:]
    /// Whether a phrase's documents are found with how often each holds the phrase, kept for
    /// relevance (``occurrences(ofPhrase:covering:)``): for a search by relevance, so that a
    /// phrase is matched once, not again to be counted.
    private let keepsPhraseOccurrences: Bool
    /// Each phrase's documents, ascending, with its occurrences in each, and the window they
    /// were found in (nil: every segment).
    private var phraseOccurrences: [[String]: PhraseOccurrences] = [:]

    /// The documents holding a phrase within `window` (nil: every segment), ascending, and how
    /// many times each holds it.
    struct PhraseOccurrences {
        let window: ClosedRange<Int64>?
        var numbers: [Int64] = []
        var counts: [Int] = []
    }

    private struct DocumentsKey: Hashable {
        let term: QueryCondition
        let window: ClosedRange<Int64>?
    }

    init(
        lookup: WordPrefixSearch.Lookup, maximum: Int64, db: Database, counts: LookupCounts?,
        keepsPhraseOccurrences: Bool = false
    ) {
        self.lookup = lookup
        self.maximum = maximum
        self.db = db
        self.counts = counts
        self.keepsPhraseOccurrences = keepsPhraseOccurrences
    }

    /// Whose postings hold `word`'s entries.
    func postings(of word: String) throws -> Postings {
        if let found = postings[word] { return found }
        counts?.count(.postings, of: word)
        let (segments, owners) = try lookup.postings(word, db)
        let found = Postings(segments: segments, owners: owners)
        postings[word] = found
        return found
    }

    /// The ids of the tokens `word` starts: its postings' owners when those are tokens (every
    /// use of a word's tokens needs its postings too).
    func tokens(of word: String) throws -> [Int64] {
        if let found = tokens[word] { return found }
        let known = try postings(of: word)
        if known.segments == .tokens { return known.owners }
        counts?.count(.tokens, of: word)
        let found = try lookup.tokens(word, db)
        tokens[word] = found
        return found
    }

    /// The tokens of a phrase's words; nil when a word but the last is no token, or the last
    /// starts none: no entry holds the phrase.
    func tokens(ofPhrase words: [String]) throws -> PhraseMatch.Tokens? {
        if let found = phrases[words] { return found }
        counts?.count(.phrase, of: words.joined(separator: " "))
        let exact = try words.dropLast().compactMap { try SearchStore.tokenID($0, in: db) }
        let last = words[words.count - 1]
        let lastTokens = try tokens(of: last)
        var found =
            exact.count == words.count - 1 && !lastTokens.isEmpty
            ? PhraseMatch.Tokens(exact: exact, last: lastTokens, lastWhole: try SearchStore.tokenID(last, in: db))
            : nil
        if lookup.keyPositions, found != nil, lastTokens.count > PhraseMatch.cursorLimit {
            if PostingOwner.keepsPositions(key: last) {
                if let key = try keyWithPositions(of: last) { found?.lastLists = [(.prefixKey, key)] }
            } else if last.unicodeScalars.count < PostingOwner.keyLengthWithPositions {
                found?.lastLists = try TokenRange.keyCover(of: last, limit: PhraseMatch.cursorLimit, in: db)
            } else if lastTokens.count > PhraseMatch.keyNarrowing {
                var key = String.UnicodeScalarView()
                key.append(contentsOf: last.unicodeScalars.prefix(PostingOwner.keyLengthWithPositions))
                found?.lastKey = try SearchStore.prefixKeyID(String(key), in: db)
            }
        }
        phrases[words] = found
        return found
    }

    /// The prefix key whose postings are `word`'s and keep where its tokens stand in each entry
    /// (a word of ``PostingOwner/keyLengthWithPositions`` code points whose key has a row): one
    /// list where the word's tokens are many lists. Nil for any other word, and for a strategy
    /// that doesn't read keys' positions.
    func keyWithPositions(of word: String) throws -> Int64? {
        guard lookup.keyPositions, PostingOwner.keepsPositions(key: word) else { return nil }
        // The word's postings, looked up once already, are its key's when it has a row.
        let postings = try postings(of: word)
        return postings.segments == .prefixKeys && postings.owners.count == 1 ? postings.owners[0] : nil
    }

    /// The documents `word` matches among those numbered within `window` (all when nil).
    func documents(ofWord word: String, within window: ClosedRange<Int64>?) throws -> DocumentSet {
        let key = DocumentsKey(term: .word(word), window: window)
        if let found = documents[key] { return found }
        let postings = try postings(of: word)
        var entries = DocumentSet(maximum: maximum)
        try postings.segments.unite(owners: postings.owners, into: &entries, within: window, in: db)
        documents[key] = entries
        return entries
    }

    /// The documents holding the phrase among `candidates` (when given: only those are sure
    /// to be right), its words' segments read within `window`.
    func documents(
        ofPhrase words: [String], within window: ClosedRange<Int64>?, candidates: DocumentSet?
    ) throws -> DocumentSet {
        let key = DocumentsKey(term: .phrase(words), window: window)
        if candidates == nil, let found = documents[key] { return found }
        guard let phrase = try tokens(ofPhrase: words) else { return DocumentSet(maximum: maximum) }
        var matching = candidates
        for id in Set(phrase.exact) {
            var entries = DocumentSet(maximum: maximum)
            try PostingSegments.tokens.unite(owner: id, into: &entries, within: window, in: db)
            if matching == nil { matching = entries } else { matching!.formIntersection(entries) }
        }
        var found: DocumentSet
        if let key = phrase.lastKey {
            // The key's one list rather than the word's many tokens' lists: the match checks
            // the word.
            found = DocumentSet(maximum: maximum)
            try PostingSegments.prefixKeys.unite(owner: key, into: &found, within: window, in: db)
        } else {
            found = try documents(ofWord: words[words.count - 1], within: window)
        }
        if let matching { found.formIntersection(matching) }
        guard candidates == nil else { return try PhraseMatch.filter(found, phrase, maximum: maximum, in: db) }
        var holding = DocumentSet(maximum: maximum)
        if keepsPhraseOccurrences {
            var counted = PhraseOccurrences(window: window)
            try PhraseMatch.forEachOccurrenceCount(in: found, phrase, in: db) { number, count in
                holding.insert(number)
                counted.numbers.append(number)
                counted.counts.append(count)
            }
            phraseOccurrences[words] = counted
        } else {
            holding = try PhraseMatch.filter(found, phrase, maximum: maximum, in: db)
        }
        documents[key] = holding
        return holding
    }

    /// How many times each document holds the phrase `words`, as found with its documents
    /// (``keepsPhraseOccurrences``) in a window that covers `range`; nil when they were not.
    func occurrences(ofPhrase words: [String], covering range: ClosedRange<Int64>) -> PhraseOccurrences? {
        guard let found = phraseOccurrences[words] else { return nil }
        guard let window = found.window else { return found }
        return window.contains(range.lowerBound) && window.contains(range.upperBound) ? found : nil
    }

    /// Counts each term's lookups in the task that sets it: for the test that a search resolves
    /// each term once, whatever asks for it.
    @TaskLocal package static var lookups: LookupCounts?

    /// Lookups by kind and term.
    package final class LookupCounts: @unchecked Sendable {
        /// What was looked up: a word's postings, the tokens it starts, a phrase's tokens.
        package enum Kind: Hashable, Sendable { case postings, tokens, phrase }

        private let lock = NSLock()
        private var counted: [Kind: [String: Int]] = [:]

        package init() {}

        /// How many times each term was looked up for `kind`.
        package func lookups(_ kind: Kind) -> [String: Int] { lock.withLock { counted[kind] ?? [:] } }

        fileprivate func count(_ kind: Kind, of term: String) {
            lock.withLock { counted[kind, default: [:]][term, default: 0] += 1 }
        }
    }
}
