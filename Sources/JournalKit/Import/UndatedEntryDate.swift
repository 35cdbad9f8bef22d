import Foundation

/// The date an import gives the entries its input leaves undated (JSON Lines without `date`),
/// and whether the same input imported again gives them the same one.
///
/// Read from a file, they are dated when the file was last modified: the latest time their text
/// can have been written, and the same at every import of that file, so that an import run
/// again after it was killed (or by mistake) finds them in the journal by their date and text,
/// as it finds dated entries. Read from a pipe, they are dated at the import, and never found
/// in the journal: nothing tells two imports of the same piped text apart from two entries.
package struct UndatedEntryDate: Sendable {
    /// The date given.
    package let date: JournalDate
    /// Whether an entry with this date and the same text is taken for the same entry.
    package let isReproducible: Bool

    /// The time of the import: for an input with no modification time.
    package static func atImport() -> UndatedEntryDate {
        UndatedEntryDate(date: .now, isReproducible: false)
    }

    /// The modification time of a file, to the microsecond.
    package static func modified(_ time: timespec) -> UndatedEntryDate {
        UndatedEntryDate(
            date: JournalDate(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000),
            isReproducible: true)
    }
}
