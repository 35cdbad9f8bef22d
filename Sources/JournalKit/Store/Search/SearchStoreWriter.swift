import Foundation
import GRDB
import JournalText

/// Writes one batch of documents inside one search-store transaction: document rows at once,
/// then each token's and prefix key's postings, one segment rewrite per token or key.
struct SearchStoreWriter {
    let db: Database
    private let rows: any RowThreads
    /// The rows of the batch's new documents (no row of the store has their number), written
    /// many to a statement by ``finishDocuments()``: nothing reads them before.
    private var newDocuments: MultiRowInsert<(number: Int64, date: Int64, tokens: [UInt8], length: Int)>
    /// Documents numbered above this are new: there is nothing of theirs to replace.
    let largestExisting: Int64
    private var removing: [PostingOwner: [Int64: [Int64]]] = [.token: [:], .prefixKey: [:]]
    /// The documents whose prefix keys are still to be marked for removal: the tokens each
    /// no longer holds, and for a document replaced, the keys it keeps. Marked by
    /// ``markRemovedKeys()`` once the texts of all their tokens are read, in one pass.
    private var keysToRemove: [(number: Int64, tokens: [Int64], kept: Set<CodePointKey>)] = []
    /// The texts of the tokens the removed documents held, by id: what their prefix keys are
    /// made from, and how a token no document has any more is deleted.
    private var removedTokenTexts: [Int64: String] = [:]
    /// The prefix keys (ids and texts) of the tokens the removed documents held, each token's
    /// made once.
    private var keysOfToken: [Int64: [(id: Int64, key: CodePointKey)]] = [:]
    /// The texts of those keys, by id: how a key no document has any more is deleted.
    private var removedKeyTexts: [Int64: String] = [:]
    /// The id the batch's first new token took (nil while it has added none): those below
    /// were the store's before the batch.
    private var firstNewToken: Int64?
    /// The keys the batch gave a row that tokens the store held before start, by id: those
    /// tokens, whose entries the keys' first postings take
    /// (``resolveKeys(_:tokenIDs:tokenKeys:tokenKeyStarts:cache:)``).
    private var keyTokensHeldBefore: [Int64: [Int64]] = [:]
    private var days = DateBuckets.Changes()
    private var lengths = DocumentLengths.Changes()
    /// How the batch changes the store's counts of documents and of their words.
    private var totals = (documents: 0, words: 0)
    /// Whether an entry of the batch had a document already (which its postings replace).
    private(set) var replacesDocuments = false
    /// Whether an entry of the batch is numbered at or below ``largestExisting``: without one,
    /// every entry the batch adds is above every entry of the store, and its postings go to
    /// the recent segments of the tokens and keys that have segments (``PostingSegments/RecentRows``).
    private var writesBelowLargest = false
    /// How many documents ``addDocuments(_:entryTokens:lengths:ids:)`` added.
    private var addedDocuments = 0
    /// Whether the batch wrote recent segments.
    private var wroteRecent = false

    /// The search store `db` is of, whose prefix table's file gives the texts of the tokens of
    /// removed documents; without it, they come from a pass over the token table.
    private let store: SearchStore?

    /// Writes into the search store `db` (of `store`, when given); `rows` starts the threads
    /// that make rows beside this one.
    init(db: Database, rows: any RowThreads, store: SearchStore? = nil) throws {
        self.rows = rows
        self.db = db
        self.store = store
        newDocuments = MultiRowInsert(into: "document", columns: ["id", "date", "tokens", "length"], in: db) {
            bind, first, document in
            bind.bind(first, document.number)
            bind.bind(first + 1, document.date)
            bind.bind(first + 2, document.tokens)
            bind.bind(first + 3, document.length)
        }
        largestExisting = try Int64.fetchOne(db, sql: "SELECT max(id) FROM document") ?? 0
    }

    /// Texts looked up in one statement by ``resolve(_:cache:)``.
    private static let chunk = 500

    /// The ids of these texts (tokens or keys, distinct), adding those the store doesn't have
    /// yet. Those the cache lacks are looked up in text order (not at all when the cache holds
    /// every row): ``chunk`` at a time, or, for a batch with at least a quarter as many of them
    /// as the table has rows, by one walk along the table in text order from the first of them
    /// to the last. Those the store lacks take the next ids, chosen here, and are inserted many
    /// to a statement (``MultiRowInsert``), rather than a statement per text, ids read back from
    /// an `INSERT … RETURNING`, or a table of the rows by text, each of which keeps the writing
    /// thread longer.
    mutating func resolve(_ texts: [String], cache: inout OwnerIDCache) throws -> [Int64] {
        let keys = texts.map(CodePointKey.init)
        var (ids, missing) = try find(texts, keys: keys, cache: &cache)
        try add(missing, of: texts, keys: keys, to: &ids, cache: &cache)
        return ids.map { $0! }
    }

    /// The ids the store (or `cache`) has for `texts`, nil for those it lacks, looked up as
    /// ``resolve(_:cache:)`` says; and the indexes of those it lacks, in text order.
    private func find(
        _ texts: [String], keys: [CodePointKey], cache: inout OwnerIDCache
    ) throws -> (ids: [Int64?], missing: [Int]) {
        let owner = cache.owner
        var ids = keys.map { cache.ids[$0] }
        // In text order: lookups go forward through the table's order by text, and new rows take
        // ids in that order, where the order the batch met them scattered the rows by text and
        // the list by id.
        let missing = ids.indices.filter { ids[$0] == nil }
        let leading = missing.map { keys[$0].leadingBytes }
        var new = missing.indices.sorted {
            leading[$0] != leading[$1] ? leading[$0] < leading[$1] : keys[missing[$0]] < keys[missing[$1]]
        }.map { missing[$0] }
        if !cache.holdsEveryRow, !new.isEmpty {
            let found =
                try new.count * 4 >= Self.rowsEstimate(of: owner, in: db)
                ? walkIndex(of: owner, for: new, keys: keys) : lookUp(new, texts: texts, keys: keys, in: owner)
            new = new.filter { index in
                guard let id = found[index] else { return true }
                cache.found(keys[index], id: id)
                ids[index] = id
                return false
            }
        }
        return (ids, new)
    }

    /// Adds the rows of `texts` at `new` (indexes of texts the store lacks, in text order),
    /// giving each the next id, and sets their ids in `ids`.
    private mutating func add(
        _ new: [Int], of texts: [String], keys: [CodePointKey], to ids: inout [Int64?],
        cache: inout OwnerIDCache
    ) throws {
        let owner = cache.owner
        if !new.isEmpty {
            var next = try Self.nextID(of: owner, in: db)
            if owner == .token { firstNewToken = next }
            cache.reserve(new.count)
            func rows(into table: String) -> MultiRowInsert<(id: Int64, text: String)> {
                MultiRowInsert(into: table, columns: ["id", "text"], in: db) { bind, first, row in
                    bind.bind(first, row.id)
                    bind.bind(first + 1, text: row.text)
                }
            }
            var insert = rows(into: owner.table)
            // A new token is also listed by id among those the prefix table's file lacks, when
            // there is a file (without one, readers read the token table, and the first save
            // starts the list empty).
            let lists = try owner == .token && PrefixSnapshot.record(in: db) != nil
            var listed = lists ? rows(into: owner.sequenceName) : nil
            for index in new {
                try insert.add((next, texts[index]))
                try listed?.add((next, texts[index]))
                cache.added(keys[index], id: next)
                ids[index] = next
                next += 1
            }
            try insert.flush()
            try listed?.flush()
            if owner == .prefixKey || !lists { try Self.keepLargestID(next - 1, of: owner, in: db) }
        }
    }

    /// How many entries the one token of a prefix key without a row may have: past these, the
    /// next batch that uses the key gives it a row and postings of its own after all, so that a
    /// short word that many entries hold (`and`, the only token starting with it) is counted
    /// from its key's segment counts, not by reading a token's list with its positions. Lists
    /// this short take a few segments.
    static let entriesOfAKeyOfOneToken = 2_048

    /// Whether the one token of `tokens` (a key's, the store's before the batch) has more than
    /// ``entriesOfAKeyOfOneToken`` entries.
    private static func isLarge(keyOfOneToken tokens: Set<Int64>, in db: Database) throws -> Bool {
        guard tokens.count == 1, let token = tokens.first else { return false }
        return try PostingSegments.tokens.haveMoreEntries(than: entriesOfAKeyOfOneToken, owners: [token], in: db)
    }

    /// The ids of the batch's prefix keys `texts`, as ``resolve(_:cache:)`` gives them, but a
    /// key the store has no row for gets one only when two tokens or more start with it (the
    /// invariant of ``PostingOwner/prefixKey``): 0 for one that stays without. The batch's
    /// tokens with key `k` are `tokenIDs[t]` for each `t` such that `k` is among
    /// `tokenKeys[tokenKeyStarts[t]..<tokenKeyStarts[t + 1]]` (indexes into `texts`); the
    /// tokens must be resolved first. A key given a row for a token the store held before
    /// the batch takes that token's entries (``finish(_:adding:ids:tails:)``).
    mutating func resolveKeys(
        _ texts: [String], tokenIDs: [Int64], tokenKeys: [Int32], tokenKeyStarts: [Int], cache: inout OwnerIDCache
    ) throws -> [Int64] {
        precondition(cache.owner == .prefixKey)
        let keys = texts.map(CodePointKey.init)
        var (ids, missing) = try find(texts, keys: keys, cache: &cache)
        // Each key without a row: how many of the batch's new tokens start with it, and the
        // tokens the store held before the batch that do (at most one, by the invariant).
        let firstNew = firstNewToken ?? Int64.max
        var newTokens = [Int](repeating: 0, count: texts.count)
        var earlierTokens: [Int: Set<Int64>] = [:]
        for (token, id) in tokenIDs.enumerated() {
            for key in tokenKeys[tokenKeyStarts[token]..<tokenKeyStarts[token + 1]] where ids[Int(key)] == nil {
                if id >= firstNew { newTokens[Int(key)] += 1 } else { earlierTokens[Int(key), default: []].insert(id) }
            }
        }
        let storeHadTokens = firstNew > 1
        var listed: [Int] = []
        var heldBefore: [(index: Int, tokens: Set<Int64>)] = []
        for index in missing where newTokens[index] > 0 || earlierTokens[index] != nil {
            var earlier = earlierTokens[index] ?? []
            // A token of the store that the batch doesn't hold may start with it too.
            if earlier.isEmpty, storeHadTokens {
                earlier.formUnion(try TokenRange.ids(startingWith: texts[index], below: firstNew, limit: 2, in: db))
            }
            let listsOwn =
                try newTokens[index] + earlier.count >= 2
                || (newTokens[index] == 0 && Self.isLarge(keyOfOneToken: earlier, in: db))
            guard listsOwn else { continue }
            listed.append(index)
            if !earlier.isEmpty { heldBefore.append((index, earlier)) }
        }
        try add(listed, of: texts, keys: keys, to: &ids, cache: &cache)
        for (index, tokens) in heldBefore { keyTokensHeldBefore[ids[index]!] = tokens.sorted() }
        return ids.map { $0 ?? 0 }
    }

    /// The ids the table has for `wanted` (indexes into `keys`, in text order), by index:
    /// ``chunk`` texts to a statement.
    private func lookUp(
        _ wanted: [Int], texts: [String], keys: [CodePointKey], in owner: PostingOwner
    ) throws -> [Int: Int64] {
        var found: [Int: Int64] = [:]
        for start in stride(from: 0, to: wanted.count, by: Self.chunk) {
            let chunk = Array(wanted[start..<min(start + Self.chunk, wanted.count)])
            let lookup = try db.statement(
                sql:
                    "SELECT id, CAST(text AS BLOB) FROM \(owner.table) WHERE text IN (\(SQLParameters.list(chunk.count)))",
                reused: chunk.count == Self.chunk)
            let ids = try Self.ids(Row.fetchCursor(lookup.bound { $0.bind(texts, at: chunk) }))
            for index in chunk { found[index] = ids[keys[index]] }
        }
        return found
    }

    /// The same, read by walking the table in text order from the first of `wanted` on, each
    /// row's text compared where SQLite holds it (``DirectColumns``), until the last is passed:
    /// when the wanted rows are a good part of those between, the walk costs less than a lookup
    /// each.
    private func walkIndex(of owner: PostingOwner, for wanted: [Int], keys: [CodePointKey]) throws -> [Int: Int64] {
        var found: [Int: Int64] = [:]
        let statement = try db.cachedStatement(
            sql: "SELECT id, CAST(text AS BLOB) FROM \(owner.table) WHERE text >= ? ORDER BY text")
        let rows = try Row.fetchCursor(statement.bound { $0.bind(1, text: keys[wanted[0]].string) })
        func order(_ index: Int) -> Int {
            var key = keys[wanted[index]].string
            return statement.withBlob(atColumn: 1) { row in
                key.withUTF8 { CodePointKey.compare(UnsafeRawBufferPointer($0), row) }
            }
        }
        var next = 0
        walk: while next < wanted.count, try rows.next() != nil {
            // A text the walk has passed without meeting is not in the table.
            var comparison = order(next)
            while comparison < 0 {
                next += 1
                guard next < wanted.count else { break walk }
                comparison = order(next)
            }
            if comparison == 0 {
                found[wanted[next]] = statement.int64(atColumn: 0)
                next += 1
            }
        }
        return found
    }

    /// About how many rows `owner`'s table has: the largest id given, which no fewer rows reach.
    private static func rowsEstimate(of owner: PostingOwner, in db: Database) throws -> Int {
        Int(try largestID(of: owner, in: db))
    }

    /// The id the next new row of `owner`'s table takes: past every id ever given, so that a
    /// removed token's id is never another's.
    private static func nextID(of owner: PostingOwner, in db: Database) throws -> Int64 {
        try largestID(of: owner, in: db) + 1
    }

    /// The largest id `owner`'s rows were ever given: its `sqlite_sequence` row
    /// (``PostingOwner/sequenceName``), which an id inserted into the list of tokens added (an
    /// AUTOINCREMENT table) moves on too, or the largest id of that list.
    static func largestID(of owner: PostingOwner, in db: Database) throws -> Int64 {
        let recorded =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = ?"),
                arguments: [owner.sequenceName]) ?? 0
        guard owner == .token else { return recorded }
        return max(recorded, try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM token_added")) ?? 0)
    }

    /// Records `id` as the largest id given to `owner`'s rows, where no row inserted into an
    /// AUTOINCREMENT table moved its `sqlite_sequence` row on: the prefix keys', always; the
    /// tokens', when they are not listed as added.
    static func keepLargestID(_ id: Int64, of owner: PostingOwner, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?")
            .execute(arguments: [id, owner.sequenceName])
        if db.changesCount == 0 {
            try db.cachedStatement(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)")
                .execute(arguments: [owner.sequenceName, id])
        }
    }

    /// Rows of an id and a text read back as ``ExactText``, by the text's code points.
    private static func ids(_ rows: RowCursor) throws -> [CodePointKey: Int64] {
        var ids: [CodePointKey: Int64] = [:]
        while let row = try rows.next() { ids[CodePointKey((row[1] as ExactText).string)] = row[0] }
        return ids
    }

    /// Writes entry `number`'s document row with these token ids (distinct) and its number of
    /// words (a new document's by ``finishDocuments()``, with the others of the batch). When it replaces an older version, the tokens and keys it no longer has are marked
    /// for removal; `tokens` gives its new token texts, needed only then.
    mutating func upsert(
        number: Int64, date: JournalDate, tokenIDs: [Int64], length: Int, tokens: () -> [String]
    ) throws {
        let ids = tokenIDs.sorted()
        writesBelowLargest = true
        guard number > 0, number <= PostingSegments.maximumEntryNumber else {
            throw JournalError.store("entry number \(number) is beyond what the search store can index")
        }
        let row =
            number > largestExisting
            ? nil
            : try Row.fetchOne(
                db.cachedStatement(sql: "SELECT date, tokens, length FROM document WHERE id = ?"), arguments: [number])
        let previous = row.map { DeltaList.decode($0[1]) }
        replacesDocuments = replacesDocuments || row != nil
        totals.documents += row == nil ? 1 : 0
        totals.words += length - (row?[2] as Int? ?? 0)
        lengths.set(number, length: length)
        if row.map({ $0[0] as Int64 }) != date.microseconds {
            if let row { days.remove(number, date: row[0]) }
            days.add(number, date: date.microseconds)
        }
        guard let previous else {
            try newDocuments.add((number, date.microseconds, DeltaList.bytes(ids), length))
            return
        }
        try db.cachedStatement(sql: "UPDATE document SET date = ?, tokens = ?, length = ? WHERE id = ?").bound {
            $0.bind(1, date.microseconds)
            $0.bind(2, DeltaList.bytes(ids))
            $0.bind(3, length)
            $0.bind(4, number)
        }.execute()
        let current = Set(ids)
        let dropped = previous.filter { !current.contains($0) }
        for id in dropped { removing[.token, default: [:]][id, default: []].append(number) }
        // Only a dropped token can take a key away (a kept token's keys are kept): an edit that
        // drops no word reads no token's text.
        if !dropped.isEmpty {
            keysToRemove.append((number, dropped, Set(Tokens.prefixKeys(of: tokens()).map(CodePointKey.init))))
        }
    }

    /// Adds the documents of entries numbered above every document of the store
    /// (``largestExisting``), as ``upsert(number:date:tokenIDs:length:tokens:)`` would: entry
    /// `i` of `entries` has the tokens `entryTokens[i]` (indexes into `ids`) and
    /// `lengths[i]` words. Each row's sorted token ids are made on another thread while this one
    /// writes the rows made before.
    mutating func addDocuments(
        _ entries: ArraySlice<(number: Int64, date: JournalDate)>, entryTokens: ArraySlice<[Int32]>,
        lengths entryLengths: ArraySlice<Int>, ids: [Int64]
    ) throws {
        for (entry, length) in zip(entries, entryLengths) {
            guard entry.number > largestExisting, entry.number <= PostingSegments.maximumEntryNumber else {
                throw JournalError.store(
                    "entry number \(entry.number) is not one a new document of the search store can have")
            }
            totals.documents += 1
            addedDocuments += 1
            totals.words += length
            lengths.set(entry.number, length: length)
            days.add(entry.number, date: entry.date.microseconds)
        }
        try newDocuments.add(
            from: rows.start { sink in
                for (entry, (tokens, length)) in zip(entries, zip(entryTokens, entryLengths)) {
                    var sorted = tokens.map { ids[Int($0)] }
                    sorted.sort()
                    sink((entry.number, entry.date.microseconds, DeltaList.bytes(sorted), length))
                }
            })
    }

    /// Removes the documents numbered in `range`.
    mutating func removeDocuments(in range: ClosedRange<Int64>) throws {
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, tokens, date, length FROM document WHERE id BETWEEN ? AND ?",
            arguments: [range.lowerBound, range.upperBound])
        for row in rows {
            let number: Int64 = row[0]
            days.remove(number, date: row[2])
            totals.documents -= 1
            totals.words -= row[3] as Int
            lengths.set(number, length: 0)
            let tokens = DeltaList.decode(row[1])
            for id in tokens { removing[.token, default: [:]][id, default: []].append(number) }
            keysToRemove.append((number, tokens, []))
        }
        try db.execute(
            sql: "DELETE FROM document WHERE id BETWEEN ? AND ?", arguments: [range.lowerBound, range.upperBound])
    }

    /// Marks for removal the prefix keys the documents of ``keysToRemove`` no longer have: the
    /// texts of all their tokens are read at once (the token table, kept by text, has no index
    /// by id: from the prefix table's file, or one pass over the table), then each token's keys
    /// are made once a batch, however many of the documents hold it (a word of every entry, in
    /// every one of them).
    private mutating func markRemovedKeys() throws {
        guard !keysToRemove.isEmpty else { return }
        let unread = Set(keysToRemove.lazy.flatMap(\.tokens)).filter { removedTokenTexts[$0] == nil }
        let texts =
            try store.map { try PrefixSnapshot.tokenTexts(of: unread, in: db, searchStore: $0) }
            ?? SearchStore.tokenTexts(of: unread.sorted(), in: db)
        removedTokenTexts.merge(texts) { old, _ in old }
        let find = try db.cachedStatement(sql: "SELECT id FROM prefix_key WHERE text = ?")
        for document in keysToRemove {
            var keys = Set<Int64>()
            for token in document.tokens {
                if keysOfToken[token] == nil {
                    let texts = Tokens.prefixKeys(of: removedTokenTexts[token].map { [$0] } ?? [])
                    keysOfToken[token] = try texts.compactMap { key in
                        guard let id = try Int64.fetchOne(find, arguments: [key]) else { return nil }
                        removedKeyTexts[id] = key
                        return (id, CodePointKey(key))
                    }
                }
                for key in keysOfToken[token]! where !document.kept.contains(key.key) { keys.insert(key.id) }
            }
            for key in keys { removing[.prefixKey, default: [:]][key, default: []].append(document.number) }
        }
        keysToRemove = []
    }

    /// Writes the new documents' rows, and rewrites the day buckets and the length blocks of
    /// the documents the batch added, changed or removed, and the store's counts of documents
    /// and words.
    mutating func finishDocuments() throws {
        try newDocuments.flush()
        try DateBuckets.apply(days, in: db)
        days = DateBuckets.Changes()
        try DocumentLengths.apply(lengths, in: db)
        lengths = DocumentLengths.Changes()
        try SearchStore.addToTotals(documents: totals.documents, words: totals.words, in: db)
        totals = (0, 0)
    }

    /// Stages the postings the batch adds (as ``finish(_:adding:ids:tails:)`` takes them) as run
    /// `run` of ``PostingRuns``, for a later merge: only for new documents that readers don't see.
    func stage(_ owner: PostingOwner, adding: BatchPostings, ids: [Int64], run: Int64) throws {
        precondition(
            !replacesDocuments && (removing[owner] ?? [:]).isEmpty && keysToRemove.isEmpty,
            "staged postings must be new ones")
        let postings = try postings(owner, adding, ids: ids)
        try owner.runs.stage({ postings[$0] }, ids: ids, run: run, in: db)
    }

    /// The postings the batch adds to each of `owner`'s `ids`: `adding`'s, but for a key given
    /// a row here for tokens the store held before the batch (``keyTokensHeldBefore``), those
    /// tokens' entries, as the batch's own tokens' postings left them (written or staged
    /// first), joined to the batch's.
    private func postings(_ owner: PostingOwner, _ adding: BatchPostings, ids: [Int64]) throws -> OwnerPostings {
        var seeded: [Int: PostingSegments.Added] = [:]
        if owner == .prefixKey, !keyTokensHeldBefore.isEmpty {
            for (index, id) in ids.enumerated() {
                guard let tokens = keyTokensHeldBefore[id] else { continue }
                seeded[index] = try Self.seed(adding[index], from: tokens, in: db)
            }
        }
        return OwnerPostings(adding: adding, seeded: seeded)
    }

    /// A key's first postings: `batch`, the batch's own (a key the batch uses is in one of its
    /// entries at least), joined to the entries of `tokens` outside it; with positions when the
    /// batch's have them, an entry's being the union of those tokens' lists there (the batch's
    /// entries keep the batch's lists, which hold every token of theirs with the key).
    private static func seed(
        _ batch: PostingSegments.Added, from tokens: [Int64], in db: Database
    ) throws -> PostingSegments.Added {
        guard !batch.positions.isEmpty else {
            var documents = Set(batch.documents)
            let take = { (first: Int64?, list: Data) in
                DeltaList.forEach(in: list, first: first) { documents.insert($0) }
            }
            for token in tokens {
                try PostingSegments.tokens.forEachList(of: token, in: db, take)
                try PostingRuns.tokens.forEachList(of: token, in: db, take)
            }
            return PostingSegments.Added(documents: documents.sorted()[...])
        }
        let inBatch = Set(batch.documents)
        var held: [Int64: [UInt32]] = [:]
        let take = { (entry: Int64, list: UnsafeBufferPointer<UInt8>) throws in
            guard !inBatch.contains(entry) else { return }
            guard PositionLists.decode(list, appendingTo: &held[entry, default: []]) else {
                throw PositionLists.damaged
            }
        }
        try PostingSegments.tokens.forEachPositionList(
            owners: tokens, within: 0...PostingSegments.maximumEntryNumber, in: db, take)
        for token in tokens { try PostingRuns.tokens.forEachPositionList(of: token, in: db, take) }
        // The batch's lists, each with its length, one after the other in its entries' order.
        var batchLists = batch.positions.withUnsafeBufferPointer { bytes in
            var (offset, ranges) = (0, [Range<Int>]())
            while offset < bytes.count, let end = PositionLists.offset(after: 1, in: bytes, from: offset) {
                ranges.append(offset..<end)
                offset = end
            }
            return ranges.makeIterator()
        }
        var result = (documents: [Int64](), positions: [UInt8]())
        let documents = Set(batch.documents).union(held.keys).sorted()
        let base = batch.positions.startIndex
        for entry in documents {
            result.documents.append(entry)
            if inBatch.contains(entry) {
                guard let range = batchLists.next() else { throw PositionLists.damaged }
                result.positions += batch.positions[(base + range.lowerBound)..<(base + range.upperBound)]
            } else {
                PositionLists.append(held[entry]!.sorted(), to: &result.positions)
            }
        }
        return PostingSegments.Added(documents: result.documents[...], positions: result.positions[...])
    }

    /// Rewrites the postings of every token or key the batch touched: `adding` gives, for each
    /// of the owners `ids` names, the new documents that have it (ascending, with a token's
    /// positions in each). Deletes the tokens and keys no document has any more. A batch that
    /// only adds entries above every entry of the store appends them to the recent segments of
    /// the owners that have segments.
    mutating func finish(
        _ owner: PostingOwner, adding batch: BatchPostings, ids: [Int64], tails: inout PostingTails
    ) throws -> Bool {
        try markRemovedKeys()
        let adding = try postings(owner, batch, ids: ids)
        var removals = removing[owner] ?? [:]
        removing[owner] = [:]
        var removed = false
        // Owners above it (the tokens this batch added) have no segment yet.
        let lastWithSegments = try owner.segments.lastOwner(in: db)
        let recent = try owner.segments.recentRows(in: db)
        let aboveEveryEntry = !writesBelowLargest && addedDocuments > 0
        func apply(_ id: Int64, _ added: PostingSegments.Added) throws {
            let removing = (removals.removeValue(forKey: id) ?? []).sorted()
            let isNew = id > lastWithSegments
            let stillUsed = try owner.segments.update(
                owner: id, adding: added, removing: removing, tails: &tails, isNew: isNew,
                aboveEveryEntry: aboveEveryEntry, recent: recent, in: db)
            if !stillUsed {
                try delete(owner, id: id)
                removed = true
            }
        }
        tails.reserve(ids.count)
        var (new, recentOnly) = ([Int](), [Int]())
        for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) where ids[index] != 0 {
            let id = ids[index]
            if id > lastWithSegments, removals[id] == nil {
                new.append(index)
            } else if aboveEveryEntry, removals[id] == nil {
                wroteRecent = true
                // The first recent segments since the last merge: none to append to.
                if recent == .absent { recentOnly.append(index) } else { try apply(id, adding[index]) }
            } else {
                try apply(id, adding[index])
            }
        }
        let segments = owner.segments
        if !recentOnly.isEmpty {
            var recentSegments = segments.newSegments(in: db, table: segments.recentTable)
            try recentSegments.add(
                from: rows.start { [recentOnly, ids] sink in
                    for index in recentOnly { segments.makeSegments(of: ids[index], adding: adding[index], into: sink) }
                })
            try recentSegments.flush()
        }
        // The new owners' segments are made on another thread while this one writes them.
        var added = segments.newSegments(in: db)
        var last: PostingTails.Tail?
        try added.add(
            from: rows.start { [new, ids] sink in
                for index in new { segments.makeSegments(of: ids[index], adding: adding[index], into: sink) }
            },
            added: { segment in
                // Segments come owner after owner: the one before another owner's is its owner's last.
                if let previous = last, previous.id >> 32 != segment.id >> 32 {
                    tails.admit(previous, for: previous.id >> 32)
                }
                last = segment
            })
        if let last { tails.admit(last, for: last.id >> 32) }
        try added.flush()
        for id in removals.keys.sorted() { try apply(id, PostingSegments.Added()) }
        return removed
    }

    /// Deletes the row of the token or key `id`, which no document has any more, by its text
    /// (a removed document's token or key, so read; none when the table had lost it): a token
    /// from the token table and from those the prefix table's file lacks.
    private func delete(_ owner: PostingOwner, id: Int64) throws {
        switch owner {
        case .token:
            if let text = removedTokenTexts[id] {
                try db.cachedStatement(sql: "DELETE FROM token WHERE text = ?").execute(arguments: [text])
            }
            try db.cachedStatement(sql: "DELETE FROM token_added WHERE id = ?").execute(arguments: [id])
        case .prefixKey:
            if let text = removedKeyTexts[id] {
                try db.cachedStatement(sql: "DELETE FROM prefix_key WHERE text = ?").execute(arguments: [text])
            }
        }
    }

    /// After a batch that wrote recent segments, counts its documents as recent ones, and once
    /// they are more than the others, moves every recent segment to its owner's segments
    /// (``PostingSegments/mergeAllRecent(tails:in:)``): readers then read one table again, and
    /// each merge rewrites a segment's last page once for as many entries as the segments held,
    /// so that merging costs, over many writes, a few times what the writes do (FTS5 merges its
    /// segments level by level in the same spirit).
    /// `merges` tells, from the recent documents and all of the store's, whether to merge now.
    mutating func mergeRecentIfLarge(
        tails: inout ByOwner<PostingTails>, merges: (_ recentDocuments: Int, _ documents: Int) -> Bool
    ) throws {
        guard wroteRecent else { return }
        let recentDocuments = try SearchStore.addRecentDocuments(addedDocuments, in: db)
        (wroteRecent, addedDocuments) = (false, 0)
        let documents = try SearchStore.totals(in: db).documents
        guard merges(recentDocuments, documents) else { return }
        for owner in PostingOwner.allCases { try owner.segments.mergeAllRecent(tails: &tails[owner], in: db) }
        try SearchStore.forgetRecentDocuments(in: db)
    }
}

/// The postings a batch adds to each owner it names, by the owner's index in the batch: the
/// batch's own, or those a key given its row in the batch starts with.
private struct OwnerPostings: Sendable {
    let adding: BatchPostings
    let seeded: [Int: PostingSegments.Added]

    subscript(index: Int) -> PostingSegments.Added { seeded[index] ?? adding[index] }
}
