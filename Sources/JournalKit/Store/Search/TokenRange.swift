import GRDB

/// Finding the search store's tokens that start with a word: a range scan of the token
/// table, kept by text, `text >= 'the' AND text < 'thf'`.
enum TokenRange {
    /// The ids of the tokens that start with `word` (by code points), only those after
    /// `minimumID` when given.
    static func ids(startingWith word: String, after minimumID: Int64 = 0, in db: Database) throws -> [Int64] {
        if let upper = PrefixRange.upperBound(of: word) {
            return try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM token WHERE text >= ? AND text < ? AND id > ?"),
                arguments: [word, upper, minimumID])
        }
        return try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM token WHERE text >= ? AND id > ?"), arguments: [word, minimumID])
    }

    /// The ids of at most `limit` tokens that start with `word` and are numbered below `bound`.
    static func ids(startingWith word: String, below bound: Int64, limit: Int, in db: Database) throws -> [Int64] {
        guard let upper = PrefixRange.upperBound(of: word) else {
            return try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM token WHERE text >= ? AND id < ? LIMIT ?"),
                arguments: [word, bound, limit])
        }
        return try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM token WHERE text >= ? AND text < ? AND id < ? LIMIT ?"),
            arguments: [word, upper, bound, limit])
    }

    /// The postings whose positions, together, are those of every token that a word of one
    /// code point starts: each prefix key of two code points after it that has a row (which
    /// keeps its tokens' positions), and each token that none of them covers (the word itself,
    /// and the one token of a key without a row, ``PostingOwner/prefixKey``). Found by skipping
    /// through the token table a key at a time, one seek each; nil when they are more than
    /// `limit`.
    static func keyCover(of word: String, limit: Int, in db: Database) throws -> [(owner: PostingOwner, id: Int64)]? {
        guard word.unicodeScalars.count == 1, let end = PrefixRange.upperBound(of: word) else { return nil }
        let from = try db.cachedStatement(
            sql: "SELECT CAST(text AS BLOB), id FROM token WHERE text >= ? AND text < ? ORDER BY text LIMIT 1")
        let after = try db.cachedStatement(
            sql: "SELECT CAST(text AS BLOB), id FROM token WHERE text > ? AND text < ? ORDER BY text LIMIT 1")
        var cover: [(owner: PostingOwner, id: Int64)] = []
        var row = try Row.fetchOne(from, arguments: [word, end])
        while let found = row {
            guard cover.count < limit else { return nil }
            let text = (found[0] as ExactText).string
            var key = String.UnicodeScalarView()
            key.append(contentsOf: text.unicodeScalars.prefix(PostingOwner.keyLengthWithPositions))
            let keyText = String(key)
            if PostingOwner.keepsPositions(key: keyText), let id = try SearchStore.prefixKeyID(keyText, in: db) {
                cover.append((.prefixKey, id))
                guard let keyEnd = PrefixRange.upperBound(of: keyText) else { break }
                row = try Row.fetchOne(from, arguments: [keyEnd, end])
            } else {
                cover.append((.token, found[1]))
                row = try Row.fetchOne(after, arguments: [text, end])
            }
        }
        return cover
    }
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
