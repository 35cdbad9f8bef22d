/// One import, as a sequence of named steps: take the import lock and resume what was
/// interrupted (``run()``), read and prepare the input on a thread of its own
/// (``ImportBatches``, ``ImportPreparation``), write it into the main store a step at a time
/// (``writeSteps(from:after:wordsAhead:hooks:)``), and index it (the journal's write, which catches
/// the search store up, its words broken ahead for an import of one step: ``WordsAhead``).
/// Failed on its input or cancelled, the import is taken back (``undo(after:)``).
///
/// Invariant: every step commits entries and the input position after them in one
/// transaction (``PendingImport``), so a killed import goes on where it stopped, and no read sees
/// a step before the last one commits.
struct ImportRun<Source: ImportSource> {
    let journal: Journal
    let source: Source
    /// The input as it was named (``PendingImport/input``).
    let input: String
    let keepingDuplicates: Bool
    let progress: ProgressHandler?
    let cancellation: Cancellation?
    /// Input bytes per main-store transaction.
    let stepBytes: Int

    private var main: MainStore { journal.main }

    /// Runs the import; the caller holds the journal's lock.
    func run() throws(JournalError) -> ImportSummary {
        let lock = try ImportLock.acquire(besides: main.url, timeout: StoreDatabase.busyTimeout)
        defer { lock.release() }
        let interrupted = try resume()
        let preparation = ImportPreparation(storeID: journal.storeID, keepingDuplicates: keepingDuplicates)
        let batches = try ImportBatches.start(
            reading: source, bytes: min(stepBytes, Journal.importBatchBytes), preparation: preparation)
        defer { batches.cancel() }
        let start =
            interrupted
            ?? PendingImport(
                input: input, firstEntry: nil, written: 0, alreadyPresent: 0, empty: 0, bytesRead: 0,
                totalBytes: source.totalBytes, position: source.position)
        // A fresh import of one step is broken into words as it is written; an import of more
        // steps (known from its size, or found at its second step) leaves its words to the
        // catch-up, which reads them back batch by batch.
        let oneStep = interrupted == nil && (source.totalBytes.map { $0 <= stepBytes } ?? true)
        let wordsAhead = oneStep ? WordsAhead.start() : nil
        defer { wordsAhead?.abandon() }
        let done: PendingImport
        do throws(JournalError) {
            done = try journal.write(progress: progress, wordsAhead: wordsAhead) { hooks throws(JournalError) in
                try writeSteps(from: batches, after: start, wordsAhead: wordsAhead, hooks: hooks)
            }
        } catch {
            throw undo(after: error)
        }
        journal.stores.checkpointAfterLargeWrite()
        return ImportSummary(
            count: done.written, ids: done.firstEntry.map { $0...($0 + Int64(done.written) - 1) },
            bytes: source.bytesRead, alreadyPresent: done.alreadyPresent, empty: done.empty,
            resumed: interrupted?.written ?? 0)
    }

    /// The import this one goes on with, its input skipped to where it stopped; nil when none
    /// is pending. Refused when the pending import's input is not this one.
    private func resume() throws(JournalError) -> PendingImport? {
        guard let interrupted = try main.pendingImport() else { return nil }
        guard try source.skip(to: interrupted.position) else {
            throw .importPending(interrupted.interruptedRefusal("this input is not the same up to where it stopped"))
        }
        return interrupted
    }

    /// Writes the batches into the main store, a step of `stepBytes` of input per transaction,
    /// handing what is written to `wordsAhead` while there is a single step; returns the import
    /// as its last step left it.
    private func writeSteps(
        from batches: HandOff<Result<ImportBatch, JournalError>>, after start: PendingImport,
        wordsAhead: WordsAhead?, hooks: MainStore.WriteHooks
    ) throws(JournalError) -> PendingImport {
        var (pending, finished, breakingAhead) = (start, false, wordsAhead)
        while !finished {
            // Its transaction then writes the WAL from its start again.
            main.waitForCheckpointAside()
            let step = try main.writeImportStep(pending, hooks) { insert in
                let end = try writeStep(from: batches, after: pending, breakingAhead: breakingAhead, insert: insert)
                finished = end.finished
                return end
            }
            pending = step.pending
            if !finished {
                breakingAhead?.abandon()
                breakingAhead = nil
            }
            // Copied on another thread while the next step reads its lines, and after the last
            // while the search store's catch-up breaks the import into words; then emptied,
            // before the catch-up writes (its own log as large), so that the two logs are not at
            // their largest at once (an import's disk peak).
            if step.leftLog || finished {
                try main.checkpointAside(
                    emptying: finished, start: ImportThread.checkpoint(emptying: finished).start)
            }
        }
        return pending
    }

    /// One step's entries, inside its transaction: batches until the step has its bytes or the
    /// input ends.
    private func writeStep(
        from batches: HandOff<Result<ImportBatch, JournalError>>, after pending: PendingImport,
        breakingAhead: WordsAhead?, insert: (PreparedEntry) throws -> Int64?
    ) throws -> MainStore.ImportStepEnd {
        var end = MainStore.ImportStepEnd(
            position: pending.position, bytesRead: pending.bytesRead, empty: 0, finished: false)
        while end.bytesRead - pending.bytesRead < stepBytes {
            guard let batch = try batches.take()?.get() else {
                end.finished = true
                // Its keys are found while this step commits.
                breakingAhead?.endIntake()
                break
            }
            try cancellation?.check()
            var written: [WordsAhead.Entry] = []
            if breakingAhead != nil { written.reserveCapacity(batch.entries.count) }
            for entry in batch.entries {
                guard let number = try insert(entry), breakingAhead != nil else { continue }
                written.append(.init(number: number, date: entry.date, canonical: entry.canonical))
            }
            breakingAhead?.add(written)
            (end.empty, end.bytesRead, end.position) = (end.empty + batch.empty, batch.bytesRead, batch.position)
            progress?(JournalProgress(phase: .importing, done: batch.bytesRead, total: source.totalBytes))
        }
        return end
    }

    /// The error to report for a failed import, once what it wrote is dealt with. What the
    /// input is wrong about, or a cancellation, takes the import back: nothing of it was ever
    /// written. Any other failure (the disk, a lock) leaves what its steps committed pending,
    /// for the same import run again to finish, and says so.
    private func undo(after error: JournalError) -> JournalError {
        guard error.kind == .invalidInput || error.kind == .cancelled else {
            if let left = try? main.pendingImport(), left.written > 0 {
                return JournalError(
                    error.kind, "\(error.message); \(left.stoppedNote)", line: error.line, file: error.file)
            }
            return error
        }
        // When taking back fails too (a full disk), the import stays pending, hidden, to be
        // abandoned later.
        while (try? main.abandonImportStep()) != nil {}
        return error
    }
}
