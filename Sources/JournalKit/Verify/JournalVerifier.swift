import Foundation
import GRDB
import JournalText

/// What `journal verify` found: nothing, or one line per problem (the first few of each kind).
public struct VerificationReport: Sendable, Equatable, Codable {
    /// The entries checked.
    public let entries: Int
    /// What disagrees, a line each (a few examples of each kind), or nothing.
    public let problems: [String]
    /// Whether everything agrees with the entries.
    public var isConsistent: Bool { problems.isEmpty }
}

/// Checks, reading only, that everything derived from the main store agrees with it: each
/// entry's canonical text, its document, URI and tokens in the search store, the postings of
/// tokens and prefix keys, the prefix table, and the FTS5 peer where built. Memory stays
/// bounded: entries and documents are read side by side in number order, and postings are
/// compared with documents through a sum of hashed (owner, entry) pairs.
struct JournalVerifier {
    let main: MainStore
    let search: SearchStore
    /// Stops the check (SQLite interrupts its reads) when raised.
    var cancellation: Cancellation?
    /// Problems reported per kind, so that a badly damaged store still gives a short report.
    var examplesPerKind = 5

    private struct Tally {
        var pairs = 0
        var sum: UInt64 = 0
        mutating func add(owner: Int64, entry: Int64) {
            pairs += 1
            var mixed = UInt64(bitPattern: owner << 32 | entry) &+ 0x9E37_79B9_7F4A_7C15
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            sum &+= mixed ^ (mixed >> 31)
        }
    }

    func run(progress: ProgressHandler?) throws(JournalError) -> VerificationReport {
        var problems: [String: [String]] = [:]
        var counts: [String: Int] = [:]
        func problem(_ kind: String, _ text: String) {
            counts[kind, default: 0] += 1
            if problems[kind, default: []].count < examplesPerKind { problems[kind, default: []].append(text) }
        }
        let entries = try StoreDatabase.guarded(search.url) {
            try search.pool.read { searchDB in
                try main.pool.read { mainDB in
                    guard let cancellation else { return try check(main: mainDB, search: searchDB, progress: progress, problem: problem) }
                    return try cancellation.watching(searchDB) {
                        try cancellation.watching(mainDB) {
                            try check(main: mainDB, search: searchDB, progress: progress, problem: problem)
                        }
                    }
                }
            }
        }
        if try FTS5Peer.isBuilt(in: main), let failure = FTS5Peer.integrityProblem(in: main) {
            problem("fts5", "the FTS5 peer disagrees with the entries: \(failure)")
        }
        let lines = counts.keys.sorted().flatMap { kind in
            let shown = problems[kind] ?? []
            let more = counts[kind, default: 0] - shown.count
            return shown + (more > 0 ? ["… and \(more) more like the above"] : [])
        }
        return VerificationReport(entries: entries, problems: lines)
    }

    private func check(
        main mainDB: Database, search searchDB: Database, progress: ProgressHandler?, problem: (String, String) -> Void
    ) throws -> Int {
        var tokenTexts: [Int64: String] = [:]
        for row in try Row.fetchAll(searchDB, sql: "SELECT id, text FROM token") { tokenTexts[row[0]] = row[1] }
        var keyIDs: [CodePointKey: Int64] = [:]
        for row in try Row.fetchAll(searchDB, sql: "SELECT id, text FROM prefix_key") { keyIDs[CodePointKey(row[1])] = row[0] }
        let total = try Int.fetchOne(mainDB, sql: "SELECT count(*) FROM entry") ?? 0

        var tokenPairs = Tally(), keyPairs = Tally(), dayPairs = Tally()
        let entries = try Row.fetchCursor(mainDB, sql: "SELECT n, CAST(text AS BLOB), CAST(canonical AS BLOB), date FROM entry ORDER BY n")
        let documents = try Row.fetchCursor(searchDB, sql: "SELECT id, uri, tokens, date, words FROM document ORDER BY id")
        // Each entry's text tags as one string: name and form apart by U+001E, sorted by name,
        // separated by U+001F.
        let textTags = try Row.fetchCursor(
            mainDB,
            sql: """
                SELECT entry, group_concat(name || char(30) || written, char(31))
                FROM (SELECT entry, name, written FROM tag WHERE given = 0 ORDER BY entry, name)
                GROUP BY entry ORDER BY entry
                """)
        // Cursors reuse their row: a document kept while the entries move on is a copy.
        var document = try documents.next()?.copy()
        var tagRow = try textTags.next()?.copy()
        var checked = 0
        var ranks: [Int32] = []
        while let entry = try entries.next() {
            let number: Int64 = entry[0]
            let text = (entry[1] as ExactText?)?.string ?? "", canonical = (entry[2] as ExactText?)?.string ?? ""
            if canonical != Fold.canonical(text) { problem("canonical", "p\(number): its canonical text is not canonical(text)") }
            var storedTags = ""
            while let row = tagRow, (row[0] as Int64) <= number {
                if (row[0] as Int64) == number { storedTags = row[1] }
                tagRow = try textTags.next()?.copy()
            }
            let tagsOfText = Tags.inText(text).sorted { $0.name < $1.name }.map { $0.name + "\u{1E}" + $0.written }
            if storedTags != tagsOfText.joined(separator: "\u{1F}") {
                problem("tags", "p\(number): its tags written in the text are not those of its text")
            }
            while let row = document, (row[0] as Int64) < number {
                problem("orphan", "the search store has a document for p\(row[0] as Int64), which the main store doesn't have")
                document = try documents.next()?.copy()
            }
            guard let row = document, (row[0] as Int64) == number else {
                problem("missing", "p\(number) is not in the search store")
                continue
            }
            document = try documents.next()?.copy()
            let uri = row[1] as String? ?? ""
            if uri != EntryID(storeID: main.storeID, number: number).uri {
                problem("uri", "p\(number): the search store names it \"\(uri)\"")
            }
            let date: Int64 = entry[3]
            if (row[3] as Int64?) != date { problem("date", "p\(number): the search store has another date for it") }
            dayPairs.add(owner: DateBuckets.day(of: date), entry: number)
            let ids = (row[2] as Data?).map(DeltaList.decode) ?? []
            let indexed = ids.map { tokenTexts[$0] ?? "" }
            let (expected, order) = Tokens.withOrder(canonical: Fold.canonical(text))
            if Set(indexed.map(CodePointKey.init)) != Set(expected.map(CodePointKey.init)) {
                problem("tokens", "p\(number): the search store's tokens are not tokens(e)")
            }
            WordOrder.decode((row[4] as Data?) ?? Data(), into: &ranks)
            if ranks.count != order.count
                || zip(ranks, order).contains(where: { rank, position in
                    !indexed.indices.contains(Int(rank)) || CodePointKey(indexed[Int(rank)]) != CodePointKey(expected[Int(position)])
                })
            {
                problem("words", "p\(number): the search store's words in order are not words(canonical(text))")
            }
            for id in ids { tokenPairs.add(owner: id, entry: number) }
            for key in Tokens.prefixKeys(of: indexed) {
                if let id = keyIDs[CodePointKey(key)] {
                    keyPairs.add(owner: id, entry: number)
                } else {
                    problem("keys", "p\(number): its prefix key \"\(key)\" is missing")
                }
            }
            checked += 1
            if checked % 10_000 == 0 { progress?(JournalProgress(phase: .verifying, done: checked, total: total)) }
        }
        while let row = document {
            problem("orphan", "the search store has a document for p\(row[0] as Int64), which the main store doesn't have")
            document = try documents.next()?.copy()
        }
        let miscounted =
            try Int.fetchOne(
                mainDB,
                sql: """
                    SELECT (SELECT count(*) FROM (
                            SELECT name, written, count(*) FROM tag GROUP BY name, written
                            EXCEPT SELECT name, written, uses FROM tag_form))
                        + (SELECT count(*) FROM (
                            SELECT name, written, uses FROM tag_form
                            EXCEPT SELECT name, written, count(*) FROM tag GROUP BY name, written))
                    """) ?? 0
        if miscounted > 0 { problem("tag forms", "\(miscounted) counts of the forms tags are written in disagree with the tags") }
        let owners = [
            ("posting", tokenPairs, "tokens", Set(tokenTexts.keys)), ("prefix_posting", keyPairs, "prefix keys", Set(keyIDs.values)),
        ]
        for (table, expected, name, ids) in owners {
            var found = Tally()
            var used = Set<Int64>()
            let rows = try Row.fetchCursor(searchDB, sql: "SELECT id >> 32, documents FROM \(table)")
            while let row = try rows.next() {
                let owner: Int64 = row[0]
                used.insert(owner)
                DeltaList.forEach(in: row[1] as Data? ?? Data()) { found.add(owner: owner, entry: $0) }
            }
            if found.pairs != expected.pairs || found.sum != expected.sum {
                problem("postings", "the postings of \(name) (\(found.pairs) links) disagree with the documents' (\(expected.pairs))")
            }
            let unused = ids.subtracting(used).count
            if unused > 0 { problem("unused", "\(unused) \(name) belong to no entry") }
        }
        var foundDays = Tally()
        for (day, runs) in try DateBuckets.all(in: searchDB) {
            DateBuckets.forEachRun(in: runs) { run in for number in run { foundDays.add(owner: day, entry: number) } }
        }
        if foundDays.pairs != dayPairs.pairs || foundDays.sum != dayPairs.sum {
            problem("days", "the documents by day (\(foundDays.pairs)) disagree with the entries' dates (\(dayPairs.pairs))")
        }
        if try PrefixSnapshot.record(in: searchDB) != nil {
            let path = PrefixSnapshot.fileURL(besides: search.url).path
            if let file = try PrefixSnapshot.mapped(in: searchDB, searchStore: search) {
                file.forEachToken { id, utf8 in
                    if let text = tokenTexts[id], !utf8.elementsEqual(text.utf8) {
                        problem(
                            "prefix table", "\(path) holds token \(id) as \"\(String(decoding: utf8, as: UTF8.self))\", not \"\(text)\"")
                    }
                }
                if file.isDamaged {
                    problem("prefix table", "\(path) fails authentication: it was altered or damaged")
                } else {
                    for (id, text) in tokenTexts where id <= file.maxTokenID && !file.holds(id: id, utf8: text.utf8) {
                        problem("prefix table", "\(path) doesn't find the token \"\(text)\"")
                    }
                }
            } else {
                problem("prefix table", "\(path) is missing, damaged, or not the file the search store names")
            }
        }
        let table = try PrefixSnapshot.load(from: searchDB, searchStore: search).table
        for (id, text) in tokenTexts where !table.holds(id: id, utf8: text.utf8) {
            problem("prefix table", "the prefix table doesn't find the token \"\(text)\"")
        }
        return checked
    }
}
