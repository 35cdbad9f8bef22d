import JournalText

/// A journal entry as stored: its identity, its date, and its text exactly as it was given.
public struct Entry: Hashable, Sendable, Codable {
    /// Its identity, stable for the life of the entry.
    public let id: EntryID
    /// The date it is filed under (its position newest first).
    public let date: JournalDate
    /// The text exactly as written: not normalized, not trimmed.
    public let text: String

    /// An entry as a store holds it.
    public init(id: EntryID, date: JournalDate, text: String) {
        self.id = id
        self.date = date
        self.text = text
    }
}

/// An entry about to be written: no identity yet.
public struct NewEntry: Hashable, Sendable, Codable {
    /// The date to file it under.
    public var date: JournalDate
    /// The text, kept exactly as given.
    public var text: String

    /// An entry with `text`, dated `date` (now unless given).
    public init(date: JournalDate = .now, text: String) {
        self.date = date
        self.text = text
    }
}

extension NewEntry {
    /// An entry's text may be at most this many bytes of UTF-8.
    public static let maximumTextBytes = 64 << 20

    /// Refuses text no entry may have: nothing but white space, or more than
    /// ``maximumTextBytes``.
    public static func validate(text: String) throws(JournalError) {
        guard text.utf8.count <= maximumTextBytes else {
            throw .invalidInput("the text is \(text.utf8.count) bytes; an entry may have at most \(maximumTextBytes)")
        }
        guard !text.trimmingWhiteSpace.isEmpty else { throw .invalidInput("the text is empty") }
    }
}
