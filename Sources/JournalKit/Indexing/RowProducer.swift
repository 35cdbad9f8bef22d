/// Rows made on a thread of their own (``ImportThread/rowMaker``) while the writer writes those
/// made before (``MultiRowInsert/add(from:added:)``): a batch's new documents and segments, which
/// cost about as much to make as to write.
///
/// Invariant: the rows are handed over in the order `produce` makes them, ``MultiRowInsert``'s
/// chunk at a time; once the writer stops taking, `produce` runs on without handing more.
struct RowProducer: RowThreads {
    /// Starts `produce`, which hands each row to its sink.
    func start<Value: Sendable>(
        _ produce: @escaping @Sendable (_ sink: (Value) -> Void) -> Void
    ) throws(JournalError) -> HandOff<[Value]> {
        let chunkRows = MultiRowInsert<Value>.chunkRows
        return try HandOff.start(priority: ImportThread.rowMaker.priority) { handOff in
            var (chunk, wanted) = ([Value](), true)
            produce { row in
                guard wanted else { return }
                chunk.append(row)
                guard chunk.count == chunkRows else { return }
                wanted = handOff.put(chunk)
                chunk = []
            }
            if wanted, !chunk.isEmpty { _ = handOff.put(chunk) }
        }
    }
}
