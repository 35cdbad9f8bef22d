import JournalText

/// A query as every strategy receives it: trimmed of Unicode white space, never empty.
public struct SearchQuery: Sendable, Equatable {
    /// The text as typed, trimmed.
    public let text: String

    /// Trims `text`; an empty query is a usage error.
    public init(_ text: String) throws(JournalError) {
        let trimmed = text.trimmingWhiteSpace
        guard !trimmed.isEmpty else { throw .usage("the query is empty") }
        self.text = trimmed
    }

    /// `Q = words(canonical(q))` without repeats: the prefixes a word-prefix strategy looks for.
    /// A query with no words (only punctuation or symbols) is a usage error.
    public func canonicalWords() throws(JournalError) -> [String] {
        let words = WordBreaker.uniqueWords(in: Fold.canonical(text))
        guard !words.isEmpty else { throw .usage("the query \"\(text)\" has no words to search for (only punctuation or symbols)") }
        return words
    }
}

/// Which page of the newest-first results to return.
public struct PageRequest: Sendable, Equatable, Codable {
    /// At most this many entries; 0 means all of them.
    public let limit: Int
    /// Entries to skip first.
    public let offset: Int

    /// A page of `limit` entries (0: all of them) after skipping `offset`; a negative
    /// value is a usage error.
    public init(limit: Int = 20, offset: Int = 0) throws(JournalError) {
        guard limit >= 0 else { throw .usage("the limit must be 0 (all) or more, not \(limit)") }
        guard offset >= 0 else { throw .usage("the offset must be 0 or more, not \(offset)") }
        self.init(checkedLimit: limit, offset: offset)
    }

    private init(checkedLimit limit: Int, offset: Int) {
        self.limit = limit
        self.offset = offset
    }

    /// Decodes a page, refusing a negative limit or offset as the initializer does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(limit: container.decode(Int.self, forKey: .limit), offset: container.decode(Int.self, forKey: .offset))
        } catch let error as JournalError {
            throw DecodingError.dataCorruptedError(forKey: .limit, in: container, debugDescription: error.message)
        }
    }

    /// The newest 20: what a search shows first.
    public static let first = PageRequest(checkedLimit: 20, offset: 0)

    /// The value for SQL's LIMIT: -1 is SQLite's "no limit".
    var sqlLimit: Int { limit == 0 ? -1 : limit }
}

/// Bounds for finding, with a range scan on an index, every string that starts with a prefix.
enum PrefixRange {
    /// The least string greater than every string that starts with `prefix`, in code point
    /// order (which is the UTF-8 byte order SQLite compares TEXT in); nil when there is none
    /// (a prefix made only of U+10FFFF).
    static func upperBound(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            guard last.value < 0x10FFFF else { continue }
            let next = last.value + 1 == 0xD800 ? 0xE000 : last.value + 1
            scalars.append(Unicode.Scalar(next)!)
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars)
            return String(result)
        }
        return nil
    }
}
