import Dispatch
import Foundation

/// A search that follows a query as it changes: search as you type, for an editor plugin, a
/// window or a terminal screen.
///
/// Give it each new state of the query with ``submit(_:)``, which returns at once; the session
/// searches on its own queue, keeping the journal's stores open and the prefix table and the
/// entries' date order in memory between searches, and hands each answer to the closure it was created with. A
/// search made stale by a newer request is cancelled where it stands, and its answer is never
/// delivered: every answer is for the newest request at the time it finished, and answers
/// arrive in the order of their requests. The caller never waits for a stale search. A query
/// whose count takes long (a phrase typed up to a short last word) is answered twice: its page
/// first, then the same page with its exact total (``Answer/totalFollows``).
///
/// A query of filters alone (what ``SearchQuery/typed(_:filter:now:timeZone:)`` makes of an empty text)
/// answers with the newest entries that pass them, so that a screen has something to show
/// before the first key.
///
/// ```swift
/// let journal = try Journal(directory: StoreDirectory(path: NSHomeDirectory() + "/notes"))
/// let session = LiveSearch(journal: journal) { answer in
///     if case .success(let results) = answer.results, !answer.totalFollows {
///         print("\(results.total) entries for \(answer.request.query.text ?? "")")
///     }
/// }
/// for typed in ["c", "cr", "cre", "crè"] { session.submit(.init(query: .typed(typed))) }
/// session.close()
/// ```
public final class LiveSearch: @unchecked Sendable {
    /// What to search for: the query as it stands, how, among which entries, and how many.
    public struct Request: Sendable, Equatable {
        /// The query as typed so far, read once, with its filters; without a text it lists the
        /// newest entries that pass them.
        public var query: SearchQuery
        /// How to search (the standard `prefix` strategy keeps every keystroke cheap).
        public var strategy: SearchStrategy
        /// How many of the first matches to return (the total is exact, or follows in an answer
        /// of its own: ``Answer/totalFollows``).
        public var limit: Int
        /// The order of the matches.
        public var order: SearchOrder
        /// How far past an entry's first match, in characters, to find the ranges to highlight:
        /// what a snippet shows. Finding them grows with the text of the page's entries, unlike
        /// the search, so a screen asks only for what it draws.
        public var highlightWindow: Int

        /// A request; a `limit` under 1 asks for one entry.
        public init(
            query: SearchQuery = SearchQuery(filter: .none), strategy: SearchStrategy = SearchStrategies.standard,
            limit: Int = 20, order: SearchOrder = .newest,
            highlightWindow: Int = 300
        ) {
            self.query = query
            self.strategy = strategy
            self.limit = max(limit, 1)
            self.order = order
            self.highlightWindow = max(highlightWindow, 0)
        }
    }

    /// The answer to one request.
    public struct Answer: Sendable {
        /// The number ``submit(_:)`` returned for the request: answers arrive in increasing
        /// order of it, and one that was superseded before it finished never arrives.
        public let generation: Int
        /// The request answered.
        public let request: Request
        /// The exact total and the newest entries, or why the query could not be searched (a
        /// query with no words for a word-prefix strategy, a store that failed). The total is
        /// exact unless ``totalFollows`` says otherwise.
        public let results: Result<SearchResults, JournalError>
        /// For each entry of the results, the ranges of its text the query matched, up to the
        /// request's ``Request/highlightWindow`` past the first, for a screen to highlight
        /// (empty for an empty query).
        public let highlights: [[Range<String.Index>]]
        /// Whether this answer came before its count: its entries are the page the counted
        /// answer shows, its total counts only them, and the counted answer for the same
        /// generation follows unless a newer request comes first. A phrase whose count takes
        /// long (a short last word, "the t") is answered so, and a screen shows its page at once.
        public let totalFollows: Bool
        /// How long the search took, highlighting included: for an answer before its count,
        /// how long the page took.
        public let seconds: Double
    }

    private let journal: Journal
    private let queue = DispatchQueue(label: "journal.live-search", qos: .userInteractive)
    private let queueKey = DispatchSpecificKey<Void>()
    private let deliver: @Sendable (Answer) -> Void
    private let finished: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var generation = 0
    /// The newest request not yet taken by the queue.
    private var waiting: Request?
    private var running: Cancellation?
    private var closed = false
    private var cancelled = 0

    /// A session on `journal`, which hands every answer to `onAnswer` on the session's own
    /// queue, one at a time. Right after its first search the session loads the prefix table
    /// and the date order, so that the screen's first answer doesn't wait for them and the keys
    /// typed after it find them loaded.
    public convenience init(journal: Journal, onAnswer: @escaping @Sendable (Answer) -> Void) {
        self.init(journal: journal, onAnswer: onAnswer, onClose: nil)
    }

    private init(journal: Journal, onAnswer: @escaping @Sendable (Answer) -> Void, onClose: (@Sendable () -> Void)?) {
        self.journal = journal
        deliver = onAnswer
        finished = onClose
        queue.setSpecific(key: queueKey, value: ())
    }

    /// A session whose answers arrive as an async sequence that keeps only the newest answer
    /// not yet read: a consumer slower than the typing skips to the latest. The sequence ends
    /// when the session is closed.
    public static func answers(on journal: Journal) -> (session: LiveSearch, answers: AsyncStream<Answer>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Answer.self, bufferingPolicy: .bufferingNewest(1))
        let session = LiveSearch(
            journal: journal, onAnswer: { continuation.yield($0) }, onClose: { continuation.finish() })
        return (session, stream)
    }

    /// Searches for `request` as soon as the session is free, cancelling the search under way;
    /// returns the request's generation at once. After ``close()`` nothing is searched.
    @discardableResult
    public func submit(_ request: Request) -> Int {
        let (generation, first) = lock.withLock {
            self.generation += 1
            waiting = request
            running?.cancel()
            return (self.generation, self.generation == 1)
        }
        queue.async { self.searchNewest() }
        if first { queue.async { try? self.journal.prepareForTyping() } }
        return generation
    }

    /// The generation of the newest request submitted (0 before the first).
    public var latestGeneration: Int { lock.withLock { generation } }

    /// Whether a search is under way.
    package var isSearching: Bool { lock.withLock { running != nil } }

    /// How many searches a newer request or ``close()`` stopped before they finished.
    package var cancelledSearches: Int { lock.withLock { cancelled } }

    /// Stops the session: cancels the search under way, delivers nothing more, and returns once
    /// the session's queue is idle (at once when called from `onAnswer`). The journal stays
    /// open for its owner.
    public func close() {
        let alreadyClosed = lock.withLock {
            defer { closed = true }
            running?.cancel()
            return closed
        }
        if DispatchQueue.getSpecific(key: queueKey) == nil { queue.sync {} }
        if !alreadyClosed { finished?() }
    }

    deinit {
        if !closed { finished?() }
    }

    /// Takes the newest request, if one is waiting, and answers it unless a newer one comes
    /// first.
    private func searchNewest() {
        let cancellation = Cancellation()
        let taken: (generation: Int, request: Request)? = lock.withLock {
            guard !closed, let newest = waiting else { return nil }
            waiting = nil
            running = cancellation
            return (generation, newest)
        }
        guard let (generation, request) = taken else { return }
        let started = ContinuousClock.now
        var answer = Self.answer(request, in: journal, cancellation: cancellation, totalMayFollow: true)
        if answer.totalFollows {
            // The page now, while the same request is counted; a newer request stops the count.
            guard lock.withLock({ !closed && self.generation == generation }) else {
                lock.withLock { running = nil }
                return
            }
            deliver(answer.delivered(generation: generation, request: request, seconds: secondsSince(started)))
            answer = Self.answer(request, in: journal, cancellation: cancellation, totalMayFollow: false)
        }
        let seconds = secondsSince(started)
        let current = lock.withLock {
            running = nil
            if case .failure(let error) = answer.results, error.kind == .cancelled { cancelled += 1 }
            return !closed && self.generation == generation
        }
        guard current else { return }
        deliver(answer.delivered(generation: generation, request: request, seconds: seconds))
    }

    /// A request's answer before it is delivered.
    private struct Found {
        let results: Result<SearchResults, JournalError>
        let highlights: [[Range<String.Index>]]
        var totalFollows = false

        func delivered(generation: Int, request: Request, seconds: Double) -> Answer {
            Answer(
                generation: generation, request: request, results: results, highlights: highlights,
                totalFollows: totalFollows, seconds: seconds)
        }
    }

    private static func answer(
        _ request: Request, in journal: Journal, cancellation: Cancellation, totalMayFollow: Bool
    ) -> Found {
        do throws(JournalError) {
            let page = try PageRequest(limit: request.limit, order: request.order)
            let (results, totalFollows) = try journal.search(
                request.query, strategy: request.strategy, page: page, progress: nil, cancellation: cancellation,
                totalMayFollow: totalMayFollow)
            guard request.query.text != nil else {
                return Found(results: .success(results), highlights: results.entries.map { _ in [] })
            }
            let highlighter = MatchHighlighter(query: request.query, highlighting: request.strategy.highlighting)
            return Found(
                results: .success(results),
                highlights: results.entries.map { highlighter.ranges(in: $0.text, window: request.highlightWindow) },
                totalFollows: totalFollows)
        } catch {
            return Found(results: .failure(error), highlights: [])
        }
    }
}
