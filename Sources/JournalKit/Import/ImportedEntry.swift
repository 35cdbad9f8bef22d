/// One entry as an import read it, with what tells whether the journal holds it already and
/// where it is in the input, for messages.
package struct ImportedEntry: Sendable {
    /// The entry to write.
    package var entry: NewEntry
    /// The entry it was exported from (a JSON Lines `id`): left out while that entry of this
    /// journal has its date and text (a copy of the journal has other entries under the same
    /// numbers).
    package var exportedFrom: EntryID?
    /// For a format that carries no identity (jrnl's), how an entry of the journal is known
    /// to be this one: by its date, to the precision written, and its text.
    package var sameDateAndText: DateAndTextMatch?
    /// Where the entry is in the input: "line 12", "entry 3 (uuid 5F1E…)".
    package var location: String
    /// Its 1-based line in the input, when the format has lines.
    package var line: Int?

    /// An entry at `location` in an input without lines (a Day One or jrnl JSON document).
    package init(
        entry: NewEntry, exportedFrom: EntryID? = nil, sameDateAndText: DateAndTextMatch? = nil, location: String
    ) {
        self.entry = entry
        self.exportedFrom = exportedFrom
        self.sameDateAndText = sameDateAndText
        self.location = location
        self.line = nil
    }

    /// An entry that starts on input line `line`.
    package init(entry: NewEntry, exportedFrom: EntryID? = nil, sameDateAndText: DateAndTextMatch? = nil, line: Int) {
        self.entry = entry
        self.exportedFrom = exportedFrom
        self.sameDateAndText = sameDateAndText
        self.location = JournalError.location(ofLine: line)
        self.line = line
    }

    /// An error about this entry: its location, then `message`.
    package func error(_ message: String) -> JournalError {
        .invalidInput("\(location): \(message)", line: line)
    }
}
