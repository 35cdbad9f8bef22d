/// An input an import reads entries from, in batches: JSON Lines a few thousand lines at a
/// time, or a document (jrnl's, Day One's) read whole and handed over in slices.
///
/// Reading an item is separate from taking the batch so that the journal reads a batch's items
/// on every core while it writes the previous batch.
package protocol ImportSource: AnyObject, SendableMetatype {
    /// What a batch holds before it is read: a line, or an entry already parsed.
    associatedtype Item: Sendable

    /// The next items, a few thousand at most and about `bytes` of input at most (never none
    /// before the end), or nil at the end.
    func nextBatch(bytes: Int) throws(JournalError) -> [Item]?

    /// The entry `item` describes, dated by `undated` when the item has no date; nil for an
    /// entry the format allows but a journal can't hold (no text), which the import leaves out
    /// and counts; or an error naming the item.
    static func entry(from item: Item, undated: UndatedEntryDate) -> Result<ImportedEntry?, JournalError>

    /// The date of the entries the input leaves undated.
    var undatedEntries: UndatedEntryDate { get }

    /// Bytes of input consumed so far.
    var bytesRead: Int { get }
    /// The input's size when known, for progress.
    var totalBytes: Int? { get }

    /// Where the input stands after the batches taken so far: what an import records with each
    /// step, to go on from there when run again.
    var position: ImportPosition { get }
    /// Goes on from `position` (nothing taken yet): false when this input is not the one
    /// `position` was recorded from, up to there.
    func skip(to position: ImportPosition) throws(JournalError) -> Bool
}

extension JSONLinesReader: ImportSource {
    package func nextBatch(bytes: Int) throws(JournalError) -> [NumberedLine]? {
        try nextBatch(targetBytes: bytes, maxLines: 4_096)
    }

    package static func entry(
        from item: NumberedLine, undated: UndatedEntryDate
    ) -> Result<ImportedEntry?, JournalError> {
        ImportLine.parseWithSource(item, defaultDate: undated.date).map { parsed in
            // A line dated at the import (read from a pipe) can't be one the journal holds.
            let identified = parsed.dated || undated.isReproducible
            return ImportedEntry(
                entry: parsed.entry, exportedFrom: parsed.source,
                sameDateAndText: identified && parsed.entry.origin == nil ? .exact : nil, line: item.number)
        }
    }
}

/// The entries of a document read whole (jrnl's JSON or text, Day One's JSON), handed over a
/// few thousand at a time. Progress counts the document's bytes in proportion to the entries
/// handed over; a position is a number of entries, with the digest of the whole document.
package final class DocumentSource: ImportSource {
    private let entries: [Result<ImportedEntry?, JournalError>]
    private var taken = 0
    private let digest: String
    package let totalBytes: Int?

    /// The document's `entries`; it has `bytes` and the digest `digest` (``InputDigest``).
    package init(_ entries: [Result<ImportedEntry?, JournalError>], bytes: Int, digest: String) {
        self.entries = entries
        self.digest = digest
        totalBytes = bytes
    }

    package var bytesRead: Int {
        guard let totalBytes, !entries.isEmpty else { return totalBytes ?? 0 }
        return totalBytes * taken / entries.count
    }

    package var position: ImportPosition { ImportPosition(offset: taken, line: taken, digest: digest) }

    package func skip(to position: ImportPosition) -> Bool {
        guard position.digest == digest, taken == 0, position.offset <= entries.count else { return false }
        taken = position.offset
        return true
    }

    package func nextBatch(bytes: Int) -> [Result<ImportedEntry?, JournalError>]? {
        guard taken < entries.count else { return nil }
        let share = totalBytes.map { $0 > 0 ? entries.count * min(bytes, $0) / $0 : 4_096 } ?? 4_096
        let end = min(taken + min(max(share, 1), 4_096), entries.count)
        defer { taken = end }
        return Array(entries[taken..<end])
    }

    package static func entry(
        from item: Result<ImportedEntry?, JournalError>, undated: UndatedEntryDate
    ) -> Result<ImportedEntry?, JournalError> {
        item
    }

    /// Unused: every entry of the formats read whole has a date.
    package var undatedEntries: UndatedEntryDate { .atImport() }
}
