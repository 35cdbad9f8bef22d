import Foundation
import GRDB
import JournalKit
import JournalText

/// A query of the comparison, with what kind of query it is.
public struct ComparisonQuery: Sendable, Equatable {
    /// The query as a user would type it.
    public let text: String
    /// "very common", "rare", "two-letter prefix", … or "from file".
    public let kind: String

    /// A query `text` of the kind `kind`.
    public init(text: String, kind: String) {
        self.text = text
        self.kind = kind
    }

    /// One query a line (blank lines and lines starting with # skipped).
    public static func load(path: String) throws(JournalError) -> [ComparisonQuery] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput("cannot read the query file \(path)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .invalidInput("\(path) is not valid UTF-8")
        }
        let queries = text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhiteSpace }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { ComparisonQuery(text: $0, kind: "from file") }
        guard !queries.isEmpty else { throw .invalidInput("\(path) has no queries") }
        return queries
    }
}

extension Journal {
    /// A query set chosen from this journal's own token frequencies: very common, common and
    /// rare words, an absent one, one- and two-letter prefixes, several words at once,
    /// spellings with capitals and diacritics as people type them, and a word of a script
    /// written without spaces when the journal has one.
    public func builtInQueries() throws(JournalError) -> [ComparisonQuery] {
        let frequencies = try search.tokenFrequencies()
        let words = frequencies.filter {
            $0.text.unicodeScalars.count >= 2 && $0.text.unicodeScalars.allSatisfy(\.properties.isAlphabetic)
        }
        guard words.count >= 3 else { return [] }
        var queries: [ComparisonQuery] = []
        func add(_ text: String, _ kind: String) {
            if !queries.contains(where: { $0.text == text }) { queries.append(ComparisonQuery(text: text, kind: kind)) }
        }
        for word in words.prefix(3) { add(word.text, "very common") }
        for rank in [30, 100, 300] where rank < words.count { add(words[rank].text, "common") }
        let rare = words.filter { (2...5).contains($0.documents) }
        for index in stride(from: 0, to: rare.count, by: max(1, rare.count / 3)).prefix(3) {
            add(rare[index].text, "rare")
        }
        var absent = "qzxj"
        while frequencies.contains(where: { $0.text.hasPrefix(absent) }) { absent += "q" }
        add(absent, "absent")
        for word in words.prefix(2) { add(String(word.text.prefix(1)), "one-letter prefix") }
        for word in words.prefix(2) { add(String(word.text.prefix(2)), "two-letter prefix") }
        add("\(words[0].text) \(words[min(30, words.count - 1)].text)", "two words")
        if let rareWord = rare.first { add("\(words[1].text) \(rareWord.text)", "common and rare") }
        for variant in try typedVariants(of: Set(words.prefix(500).map(\.text))) {
            add(variant, "capitals and diacritics")
        }
        if let unspaced = words.first(where: { $0.text.unicodeScalars.contains { $0.properties.isIdeographic } }) {
            add(unspaced.text, "ideographic")
        }
        return queries
    }

    /// Queries in the word-prefix syntax, from the same frequencies and the journal's tags: a
    /// phrase, `OR`, a word left out, a group, and a tag with a word. The substring strategies
    /// take them as written, quotes and all.
    public func syntaxQueries() throws(JournalError) -> [ComparisonQuery] {
        let words = try search.tokenFrequencies()
            .filter {
                $0.text.unicodeScalars.count >= 2 && $0.text.unicodeScalars.allSatisfy(\.properties.isAlphabetic)
            }
        guard words.count > 100 else { return [] }
        var queries = [
            ComparisonQuery(text: "\"\(words[0].text) \(words[1].text)\"", kind: "syntax: phrase"),
            ComparisonQuery(text: "\(words[30].text) OR \(words[100].text)", kind: "syntax: OR"),
            ComparisonQuery(text: "\(words[30].text) -\(words[0].text)", kind: "syntax: left out"),
            ComparisonQuery(
                text: "(\(words[30].text) OR \(words[100].text)) -\"\(words[0].text) \(words[1].text)\"",
                kind: "syntax: group"),
        ]
        if let tag = try tags().first {
            queries.append(ComparisonQuery(text: "#\(tag.name) \(words[30].text)", kind: "syntax: tag"))
        }
        return queries
    }

    /// Up to three words as written in entries whose canonical form is a common token but which
    /// are spelled differently (diacritics, ß, capitals): how people type them. Words whose
    /// difference is more than case come first.
    private func typedVariants(of common: Set<String>) throws(JournalError) -> [String] {
        let texts = try StoreDatabase.guarded(main.url) {
            try main.pool.read { db in try String.fetchAll(db, sql: "SELECT text FROM entry ORDER BY n LIMIT 2000") }
        }
        var beyondCase: [String] = []
        var caseOnly: [String] = []
        var seen = Set<String>()
        for text in texts {
            for word in WordBreaker.words(in: text) {
                let canonical = Fold.canonical(word)
                guard canonical != word, common.contains(canonical), seen.insert(canonical).inserted else { continue }
                if Fold.c.apply(to: word) != canonical { beyondCase.append(word) } else { caseOnly.append(word) }
            }
        }
        return Array((beyondCase + caseOnly).prefix(3))
    }
}
