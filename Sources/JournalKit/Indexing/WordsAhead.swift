import Foundation

/// An import's entries broken into words on a thread of their own while the main store's
/// writer writes them, so that the catch-up after the import's commit starts from their words
/// (``SearchIndexer``, `wordsAhead`) instead of reading the entries back and breaking them:
/// for an import of one step, the core that writer leaves idle does that work.
///
/// Once the intake ends (``endIntake()``, before the main store commits), the thread also finds
/// the prefix keys of the distinct tokens, while that commit waits for the disk.
///
/// Invariant: the words are of entries added in consecutive numbers, in that order, with the
/// canonical text and date the main store was given; entries added out of that order, or an
/// ``abandon()``, leave no words. The indexer takes them only for a batch that applies exactly
/// one insert change of exactly those numbers; any other batch reads the main store as usual.
final class WordsAhead: Sendable {
    /// An entry as the main store wrote it.
    struct Entry: Sendable {
        let number: Int64
        let date: JournalDate
        let canonical: String
    }

    /// The entries' numbers and dates, in number order, their words, the prefix keys of their
    /// distinct tokens, and the bytes of their canonical text.
    struct Words: Sendable {
        let entries: [(number: Int64, date: JournalDate)]
        let slice: BrokenSlice
        let keys: TokenKeys
        let bytes: Int
    }

    private let state: State
    private let thread: JoinedThread

    /// Starts the breaking thread; nil when no thread can be had (the catch-up then reads the
    /// entries back as usual).
    static func start() -> WordsAhead? {
        let state = State()
        guard let thread = try? JoinedThread(priority: ImportThread.wordsAhead.priority, { state.run() }) else {
            return nil
        }
        return WordsAhead(state: state, thread: thread)
    }

    private init(state: State, thread: JoinedThread) {
        self.state = state
        self.thread = thread
    }

    deinit { abandon() }

    /// Hands over entries just written, to be broken into words after those handed before.
    func add(_ written: [Entry]) {
        state.add(written)
    }

    /// Ends the intake: every entry has been handed over. The thread breaks what is queued and
    /// finds the keys without waiting for ``takeWords()``.
    func endIntake() {
        state.close()
    }

    /// Drops everything: the import goes on past what this may hold (a second step), or failed.
    /// Returns once the thread has ended.
    func abandon() {
        state.abandon()
        join()
    }

    /// The words of every entry handed over, once the thread has broken them all, handed over
    /// once: nil after ``abandon()``, when nothing was handed over, or when taken already.
    func takeWords() -> Words? {
        join()
        return state.takeWords()
    }

    /// Ends the intake and waits for the thread.
    private func join() {
        endIntake()
        thread.join()
    }

    /// What the thread works on, apart from the value that owns it, so that the thread does not
    /// keep that value alive.
    private final class State: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [[Entry]] = []
        private var closed = false
        private var abandoned = false
        /// Touched only by the thread until it ends, then by ``takeWords()``.
        private var builder = BrokenSlice.Builder(entries: 1_024)
        private var entries: [(number: Int64, date: JournalDate)] = []
        private var bytes = 0
        /// The slice and its keys, made by the thread once the intake is done.
        private var finished: (slice: BrokenSlice, keys: TokenKeys)?

        func add(_ written: [Entry]) {
            guard !written.isEmpty else { return }
            condition.withLock {
                guard !closed else { return }
                queue.append(written)
                condition.signal()
            }
        }

        func abandon() {
            condition.withLock {
                abandoned = true
                queue = []
                condition.signal()
            }
        }

        /// Ends the intake: the thread ends once it has broken what is queued.
        func close() {
            condition.withLock {
                closed = true
                condition.signal()
            }
        }

        /// The words, once, after the thread has ended; what held them is let go.
        func takeWords() -> Words? {
            condition.withLock {
                guard !abandoned, !entries.isEmpty, let finished else { return nil }
                defer { (entries, self.finished, bytes) = ([], nil, 0) }
                return Words(entries: entries, slice: finished.slice, keys: finished.keys, bytes: bytes)
            }
        }

        /// The thread's loop: breaks each batch handed over, in order, until the intake is
        /// closed and empty, or abandoned; entries out of number order abandon it. Then finds
        /// the keys of the tokens.
        func run() {
            while let batch = nextBatch() {
                for entry in batch {
                    if let last = entries.last, entry.number != last.number + 1 {
                        abandon()
                        return
                    }
                    builder.add(canonical: entry.canonical)
                    entries.append((entry.number, entry.date))
                    bytes += entry.canonical.utf8.count
                }
            }
            guard !condition.withLock({ abandoned }), !entries.isEmpty else { return }
            let slice = builder.finish()
            builder = BrokenSlice.Builder(entries: 0)
            finished = (slice, TokenKeys(of: slice.texts))
        }

        /// The next batch handed over, waiting for one; nil once the intake is closed and
        /// empty, or abandoned.
        private func nextBatch() -> [Entry]? {
            condition.withLock {
                while queue.isEmpty, !closed, !abandoned { condition.wait() }
                guard !abandoned, !queue.isEmpty else { return nil }
                return queue.removeFirst()
            }
        }
    }
}
