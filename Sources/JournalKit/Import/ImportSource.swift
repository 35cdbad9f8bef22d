/// An input an import reads entries from, in batches: JSON Lines a few thousand lines at a
/// time, or a document (jrnl's, Day One's) read whole and handed over in slices.
///
/// Reading an item is separate from taking the batch so that the journal reads a batch's items
/// on every core while it writes the previous batch.
package protocol ImportSource: AnyObject, SendableMetatype {
    /// What a batch holds before it is read: a line, or an entry already parsed.
    associatedtype Item: Sendable

    /// The next items, or nil at the end.
    func nextBatch() throws(JournalError) -> [Item]?

    /// The entry `item` describes; nil for an entry the format allows but a journal can't hold
    /// (no text), which the import leaves out and counts; or an error naming the item.
    static func entry(from item: Item, now: JournalDate) -> Result<ImportedEntry?, JournalError>

    /// Bytes of input consumed so far.
    var bytesRead: Int { get }
    /// The input's size when known, for progress.
    var totalBytes: Int? { get }
}

extension JSONLinesReader: ImportSource {
    package func nextBatch() throws(JournalError) -> [NumberedLine]? {
        try nextBatch(targetBytes: 4 << 20, maxLines: 4_096)
    }

    package static func entry(from item: NumberedLine, now: JournalDate) -> Result<ImportedEntry?, JournalError> {
        ImportLine.parseWithSource(item, defaultDate: now).map { parsed in
            // A line without a date is dated now: nothing already in the journal can be it.
            ImportedEntry(
                entry: parsed.entry, exportedFrom: parsed.source,
                sameDateAndText: parsed.dated && parsed.entry.origin == nil ? .exact : nil, line: item.number)
        }
    }
}

/// The entries of a document read whole (jrnl's JSON or text, Day One's JSON), handed over a
/// few thousand at a time. Progress counts the document's bytes in proportion to the entries
/// handed over.
package final class DocumentSource: ImportSource {
    private let entries: [Result<ImportedEntry?, JournalError>]
    private var position = 0
    package let totalBytes: Int?

    package init(_ entries: [Result<ImportedEntry?, JournalError>], bytes: Int) {
        self.entries = entries
        totalBytes = bytes
    }

    package var bytesRead: Int {
        guard let totalBytes, !entries.isEmpty else { return totalBytes ?? 0 }
        return totalBytes * position / entries.count
    }

    package func nextBatch() -> [Result<ImportedEntry?, JournalError>]? {
        guard position < entries.count else { return nil }
        let end = min(position + 4_096, entries.count)
        defer { position = end }
        return Array(entries[position..<end])
    }

    package static func entry(
        from item: Result<ImportedEntry?, JournalError>, now: JournalDate
    ) -> Result<ImportedEntry?, JournalError> {
        item
    }
}
