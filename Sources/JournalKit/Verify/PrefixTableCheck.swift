import GRDB

/// The prefix table against the token table: its saved file (every token it holds as the token
/// table has it, its seal intact, every token up to its last found), the list of tokens added
/// since (exactly those above the file's last), and the table as loaded into memory (every token
/// found). `tokenTexts` is the token table read by id.
enum PrefixTableCheck {
    static func run(
        tokenTexts: [Int64: String], search: SearchStore, in db: Database, problems: inout ProblemLog
    ) throws {
        let rows = try SearchStore.tokenCount(in: db)
        if rows != tokenTexts.count {
            problems.add("tokens", "\(rows - tokenTexts.count) tokens have the id of another")
        }
        if let record = try PrefixSnapshot.record(in: db) {
            var listed: Set<Int64> = []
            for (id, text) in try PrefixSnapshot.tokensAdded(in: db) {
                listed.insert(id)
                if id <= record.maxTokenID || tokenTexts[id] != text {
                    problems.add(
                        "prefix table",
                        "the tokens added since the prefix table's file list \"\(text)\" (\(id)) wrongly")
                }
            }
            for (id, text) in tokenTexts where id > record.maxTokenID && !listed.contains(id) {
                problems.add("prefix table", "the tokens added since the prefix table's file lack \"\(text)\"")
            }
            let path = PrefixSnapshot.fileURL(besides: search.url).path
            if let file = try PrefixSnapshot.mapped(in: db, searchStore: search) {
                file.forEachToken { id, utf8 in
                    if let text = tokenTexts[id], !utf8.elementsEqual(text.utf8) {
                        problems.add(
                            "prefix table",
                            "\(path) holds token \(id) as \"\(String(decoding: utf8, as: UTF8.self))\", not \"\(text)\""
                        )
                    }
                }
                if file.isDamaged {
                    problems.add("prefix table", "\(path) fails authentication: it was altered or damaged")
                } else {
                    for (id, text) in tokenTexts where id <= file.maxTokenID && !file.holds(id: id, utf8: text.utf8) {
                        problems.add("prefix table", "\(path) doesn't find the token \"\(text)\"")
                    }
                }
            } else {
                // A file of an earlier layout, left where the store can't be written, is no damage:
                // searches read the token table instead, and a catch-up that can write saves it anew.
                switch try PrefixSnapshot.refusal(in: db, searchStore: search) {
                case .missing: problems.add("prefix table", "\(path) is missing")
                case .unusable: problems.add("prefix table", "\(path) is damaged or unreadable")
                case .otherTag: problems.add("prefix table", "\(path) is not the file the search store names")
                case .earlierLayout, nil: break
                }
            }
        }
        let table = try PrefixSnapshot.load(from: db, searchStore: search).table
        for (id, text) in tokenTexts where !table.holds(id: id, utf8: text.utf8) {
            problems.add("prefix table", "the prefix table doesn't find the token \"\(text)\"")
        }
    }
}
