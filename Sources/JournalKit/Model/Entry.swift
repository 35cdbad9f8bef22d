import JournalText
import TextReport

/// A journal entry as stored: its identity, its date, its text exactly as it was given, its
/// tags, whether it is starred and, for an imported entry, where it came from.
public struct Entry: Hashable, Sendable, Codable {
    /// Its identity, stable for the life of the entry.
    public let id: EntryID
    /// The date it is filed under (its position newest first).
    public let date: JournalDate
    /// The text exactly as written: not normalized, not trimmed.
    public let text: String
    /// Its tags, sorted by name: those written in the text (`Tags.inText(_:)` of `JournalText`)
    /// and those given to it explicitly, each once, each in the form the journal shows it in
    /// (the form most used in the journal, ties to the earliest).
    public let tags: [Tag]
    /// Whether the entry is starred.
    public let starred: Bool
    /// Its identity in the application it was imported from (`dayone:` and Day One's UUID),
    /// if it has one: importing that entry again adds nothing.
    public let origin: String?

    /// An entry as a store holds it.
    public init(
        id: EntryID, date: JournalDate, text: String, tags: [Tag] = [], starred: Bool = false, origin: String? = nil
    ) {
        self.id = id
        self.date = date
        self.text = text
        self.tags = tags
        self.starred = starred
        self.origin = origin
    }
}

extension Entry {
    /// The fields of an entry in JSON, in the order written: the one schema of `--json`, of
    /// `journal export --format jsonl`, and of what `journal import` reads (every field but
    /// `text` optional there, `tag_names` not read).
    enum Field: String, CodingKey, CaseIterable {
        case id, date, text, tags
        case tagNames = "tag_names"
        case starred, origin
    }

    /// The entry as one JSON object of ``Field``s, in their order: `tags` as shown, `tag_names`
    /// beside them; `origin` only when it has one.
    package var json: JSONValue {
        .fields(
            Field.allCases.compactMap { field -> (String, JSONValue)? in
                switch field {
                case .id: (field.rawValue, .string(id.uri))
                case .date: (field.rawValue, .string(date.iso8601))
                case .text: (field.rawValue, .string(text))
                case .tags: (field.rawValue, .array(tags.map { .string($0.written) }))
                case .tagNames: (field.rawValue, .array(tags.map { .string($0.name) }))
                case .starred: (field.rawValue, .bool(starred))
                case .origin: origin.map { (field.rawValue, .string($0)) }
                }
            })
    }

    /// Encodes as the JSON Lines export writes it: a line of `journal export --format jsonl`, which imports
    /// back.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        for field in Field.allCases {
            switch field {
            case .id: try container.encode(id, forKey: field)
            case .date: try container.encode(date, forKey: field)
            case .text: try container.encode(text, forKey: field)
            case .tags: try container.encode(tags.map(\.written), forKey: field)
            case .tagNames: try container.encode(tags.map(\.name), forKey: field)
            case .starred: try container.encode(starred, forKey: field)
            case .origin: try container.encodeIfPresent(origin, forKey: field)
            }
        }
    }

    /// Decodes what ``encode(to:)`` writes; without `tag_names`, each tag's name is that of
    /// its form.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        let written = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        let names =
            try container.decodeIfPresent([String].self, forKey: .tagNames)
            ?? written.map { Tags.canonicalName($0) ?? $0 }
        guard names.count == written.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .tagNames, in: container, debugDescription: "one name for each tag")
        }
        self.init(
            id: try container.decode(EntryID.self, forKey: .id),
            date: try container.decode(JournalDate.self, forKey: .date),
            text: try container.decode(String.self, forKey: .text),
            tags: zip(names, written).map { Tag(name: $0, written: $1) },
            starred: try container.decodeIfPresent(Bool.self, forKey: .starred) ?? false,
            origin: try container.decodeIfPresent(String.self, forKey: .origin))
    }
}

/// An entry about to be written: no identity yet.
public struct NewEntry: Hashable, Sendable, Codable {
    /// The date to file it under.
    public var date: JournalDate
    /// The text, kept exactly as given.
    public var text: String
    /// Tags given to it besides those written in its text, as a user spells them (`#Café`,
    /// `cafe`): one tag by their canonical name, each kept in the form given.
    public var tags: [String]
    /// Whether the entry is starred.
    public var starred: Bool
    /// Its identity in the application it comes from, if it has one (``Entry/origin``): a
    /// journal holds at most one entry of each origin.
    public var origin: String?

    /// An entry with `text`, dated `date` (now unless given), with `tags` besides those in its
    /// text, starred or not, from `origin` if it has one.
    public init(
        date: JournalDate = .now, text: String, tags: [String] = [], starred: Bool = false, origin: String? = nil
    ) {
        self.date = date
        self.text = text
        self.tags = tags
        self.starred = starred
        self.origin = origin
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
        guard !text.isAllWhiteSpace else { throw .invalidInput("the text is empty") }
    }
}

extension NewEntry {
    /// `tags` as a user spells them, each once (the first form given of each name), in order;
    /// a name with no letter or digit is invalid input.
    public static func givenTags(_ tags: [String]) throws(JournalError) -> [Tag] {
        var given: [Tag] = []
        for spelling in tags {
            guard let tag = Tags.given(spelling) else {
                throw .invalidInput("\"\(spelling)\" is not a tag name (it needs a letter or a digit)")
            }
            if !given.contains(where: { $0.name == tag.name }) { given.append(tag) }
        }
        return given
    }

    /// The canonical names of `tags`, each once, in order; a name with no letter or digit is
    /// invalid input.
    public static func tagNames(_ tags: [String]) throws(JournalError) -> [String] {
        try givenTags(tags).map(\.name)
    }
}
