/// A journal entry as stored: its identity, its date, and its text exactly as it was given.
public struct Entry: Hashable, Sendable, Codable {
    public let id: EntryID
    public let date: JournalDate
    public let text: String

    public init(id: EntryID, date: JournalDate, text: String) {
        self.id = id
        self.date = date
        self.text = text
    }
}

/// An entry about to be written: no identity yet.
public struct NewEntry: Hashable, Sendable, Codable {
    public var date: JournalDate
    public var text: String

    public init(date: JournalDate = .now, text: String) {
        self.date = date
        self.text = text
    }
}
