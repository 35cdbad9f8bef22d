import Foundation

/// Reading an import: the line reader's thread (``ImportThread/lineReader``) reads the input a
/// batch at a time and turns each item into an entry ready to write, on every core, while the
/// writer writes the batch before.
///
/// Invariant: batches come in input order, each with the position after its last item, so that
/// a step that commits through a batch records exactly where the input goes on.
struct ImportBatch: Sendable {
    /// The entries to write, in input order.
    let entries: [PreparedEntry]
    /// Items left out for having no text.
    let empty: Int
    /// The input's bytes read through this batch, and where it goes on after it.
    let bytesRead: Int
    let position: ImportPosition
}

enum ImportBatches {
    /// Starts reading `source` in batches of at most `bytes` of input, each entry prepared by
    /// `preparation`. The reading stops at the first error, which is the last value handed over.
    static func start<Source: ImportSource>(
        reading source: Source, bytes: Int, preparation: ImportPreparation
    ) throws(JournalError) -> HandOff<Result<ImportBatch, JournalError>> {
        let undated = source.undatedEntries
        nonisolated(unsafe) let reading = source
        return try HandOff.start(priority: ImportThread.lineReader.priority) { handOff in
            var spent: (Result<ImportBatch, JournalError>?, Result<ImportBatch, JournalError>?)
            while true {
                let next: Result<ImportBatch, JournalError>
                do throws(JournalError) {
                    guard let items = try reading.nextBatch(bytes: bytes) else { return }
                    let read = items.parallelMap(priority: ImportThread.lineWorker.priority) { item in
                        Source.entry(from: item, undated: undated).flatMap(preparation.prepare)
                    }
                    let prepared = try read.map { result throws(JournalError) in try result.get() }
                    next = .success(
                        ImportBatch(
                            entries: prepared.compactMap { $0 }, empty: prepared.count { $0 == nil },
                            bytesRead: reading.bytesRead, position: reading.position))
                } catch {
                    next = .failure(error)
                }
                guard handOff.put(next), case .success = next else { return }
                // The batch before last is written now (its successor was taken): freed here,
                // where its strings were made, not by the writer, whose frees waited on this
                // thread's heap.
                spent = (spent.1, next)
            }
        }
    }
}

/// Preparing an imported entry to be written: its canonical text and keys (``Journal``'s
/// `prepare`), and what the duplicate rule needs to leave it out.
///
/// The duplicate rule: an entry the journal holds already is left out, one with the date and
/// text of an entry it holds and no star or tag that entry lacks, or one exported from this
/// journal while that entry is still there as it was; `keepingDuplicates` turns it off (an
/// entry of an origin the journal holds is always left out: an origin names one entry).
struct ImportPreparation: Sendable {
    /// The journal's store, to know its own exports.
    let storeID: UUID
    let keepingDuplicates: Bool

    /// The entry ready to write; nil for an item that is no entry (no text), an error naming
    /// the item for one that can't be.
    func prepare(_ imported: ImportedEntry?) -> Result<PreparedEntry?, JournalError> {
        guard let imported else { return .success(nil) }
        return Result { () throws(JournalError) in
            var prepared = try Journal.prepare(imported.entry)
            guard !keepingDuplicates else { return prepared }
            if let source = imported.exportedFrom, source.storeID == storeID {
                prepared.exportedFrom = source.number
            }
            prepared.sameDateAndText = imported.sameDateAndText
            return prepared
        }.mapError { imported.error($0.message) }
    }
}
