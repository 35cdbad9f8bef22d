/// The map of an import's threads: every thread an import starts, what it does, the priority it
/// runs at, and who waits for whom. Every other thread-starting site names its role here.
///
/// An import is the caller's thread writing and the threads that prepare what it writes next.
/// Every one of them is started here, in `Indexing/`, the stores' own work (a checkpoint, rows to
/// insert) included: the stores take the thread their caller starts.
/// Each stage is started at the priority its role gives it (``ThreadPriority``, relative to the
/// process's: `journal import` runs at `nice` 10, a stage behind at 15), never at its starter's.
///
/// ```
/// the caller: the writer ─────────────────────────────────────────────────────────────┐
///   main store, step by step (ImportRun)       then the search store, batch by batch  │
///      ▲ takes batches of entries                  ▲ takes prepared batches           │
///   lineReader ── parallel: lineWorker          batchPreparer ── postingLister        │
///                                                   ▲ takes broken batches            │
///   wordsAhead (an import of one step)          batchReader ── parallel: wordBreaker  │
///   rowMaker, checkpoint, release: started by the writer for work beside its own ─────┘
/// searchWatch (SearchPriority): moves every thread off a search's CPU while one runs
/// ```
///
/// | thread | does | priority | waited for by |
/// | --- | --- | --- | --- |
/// | the caller | writes each import step into the main store, then each batch into the search store | its own | the caller of the import |
/// | ``lineReader`` | reads the input's lines, turns them into entries (the duplicate rule's keys too); for a sync, opens and decodes the next run of a file's lines, and prepares what their states write (``PreparedState``), while the sync takes in those before | process | the writer, at each step's next batch; the sync, at each run |
/// | ``lineWorker`` | a share of a batch of lines, on every other core (of a sync file read whole too: a device's own files, for a snapshot) | process | the line reader, or the sync reading the file |
/// | ``wordsAhead`` | breaks the entries of a one-step import into words as they are written | behind | the search store's first batch |
/// | ``batchReader`` | reads the next batch of changes from the main store and breaks it into words | behind | the batch preparer |
/// | ``wordBreaker`` | a slice of that batch, on every other core | behind | the batch reader |
/// | ``batchPreparer`` | merges the slices' words, numbers tokens and prefix keys once | behind | the writer, at each batch |
/// | ``postingLister`` | lists each token's and prefix key's entries for a batch | behind | the writer, once the batch's documents are written |
/// | ``rowMaker`` | makes the rows of new segments and documents while the writer writes those before (``RowProducer``) | process | the writer, row by row |
/// | ``checkpoint`` | copies a store's log into the store beside the writer (and empties it after the last) | process, or behind when it empties | the writer, before its next transaction |
/// | ``release`` | frees what a batch is done with, then hands memory back to the system | process | nobody (detached) |
/// | ``searchWatch`` | watches for searches under way and keeps the process off their CPU | process | ``SearchPriority/stop()`` |
///
/// Who waits for whom is one direction only: a stage waits for the stage it takes from, and for
/// room to put its next value (``HandOff`` holds one); nothing waits for the writer but the
/// stages' room, so a stage running behind can slow the import, never stop it.
enum ImportThread {
    case lineReader, lineWorker, wordsAhead, batchReader, wordBreaker, batchPreparer, postingLister, rowMaker
    case checkpoint(emptying: Bool)
    case release, searchWatch

    /// Starts `work` on a thread of this role, to be waited for where it is needed.
    func start(_ work: @escaping @Sendable () -> Void) throws(JournalError) -> Deferred<Void> {
        try Deferred(priority: priority, work)
    }

    /// The priority the thread is started at.
    var priority: ThreadPriority {
        switch self {
        case .lineReader, .lineWorker, .rowMaker, .release, .searchWatch: .process
        case .wordsAhead, .batchReader, .wordBreaker, .batchPreparer, .postingLister: .behind
        case .checkpoint(let emptying): emptying ? .behind : .process
        }
    }
}
