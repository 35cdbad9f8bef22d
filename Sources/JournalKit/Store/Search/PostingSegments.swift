import Foundation
import GRDB

/// The link from tokens (or prefix keys) to entries: each owner's entry numbers, ascending,
/// cut into segments of at most `capacity` numbers and `byteCapacity` bytes (or one number),
/// each one row of a posting table.
///
/// A row's id packs the owner's id and the segment's first entry number
/// (`owner << 32 | first`), so an owner's segments are one rowid range, in order; its
/// `documents` hold the numbers after the first (``DeltaList/bytes(afterFirst:)``), which the
/// id gives. Indexing a batch of entries then rewrites one segment (or a few) per token the
/// batch uses, instead of inserting one row per token of every entry. A token's segments also
/// hold where it stands in each of their entries (``PositionLists``), so that a phrase is
/// answered from the postings.
///
/// An owner's entries continue in its recent segments (``recentTable``, laid out the same), where
/// entries added above every entry of the store go until they are merged into the segments
/// (``PostingSegments+Recent``). Invariant: every number in an owner's recent segments is above
/// every number in its segments, so that reading the segments and then the recent ones, each in
/// id order (one order: the ids), reads the owner's entries in ascending order.
struct PostingSegments: Sendable, Equatable {
    /// The table: `posting` (tokens) or `prefix_posting` (prefix keys).
    ///
    /// Beside its entries, a segment has a column of positions: every token keeps its positions
    /// there, and a prefix key of ``PostingOwner/keyLengthWithPositions`` code points those of
    /// its tokens; other keys leave it empty. Invariant: an owner's segments all keep positions,
    /// one list per entry, or all keep none; a list is never empty, so an owner's postings keep
    /// positions exactly when their position bytes are not empty.
    let table: String

    /// Each token's entries, with its positions in each.
    static let tokens = PostingSegments(table: "posting")
    /// Each prefix key's entries: those with a token starting with the key; with positions
    /// (``PostingOwner/keepsPositions(key:)``), where those tokens stand in each.
    static let prefixKeys = PostingSegments(table: "prefix_posting")

    /// Entries added to an owner's postings: their numbers, ascending, and, for an owner that
    /// keeps positions, their position lists, one after the other (``PositionLists``). Slices,
    /// so that a batch's are views of its flat arrays (``BatchPostings``).
    struct Added: Sendable {
        var documents: ArraySlice<Int64> = []
        var positions: ArraySlice<UInt8> = []
    }

    /// An owner's postings being merged, in arrays of their own (appending to an array costs
    /// less than to a slice).
    private struct Merging {
        var documents: [Int64] = []
        var positions: [UInt8] = []
    }

    /// Entry numbers per segment: small enough that rewriting the last one to append is cheap.
    static let capacity = 2_048
    /// Bytes of numbers and positions per segment, past which a segment takes no more entries
    /// (it always takes one): so that a frequent token's last segment stays in its B-tree page
    /// instead of a chain of overflow pages that every append rewrites, and two full segments
    /// fill a page (with their cells' headers, in what an encrypted store's page leaves after
    /// its reserved bytes). The price is more rows for a frequent word's phrases and ranking to
    /// step through (both measured in `Benchmarks/README.md`).
    static let byteCapacity = 2_000
    /// Entry numbers must fit the low half of a segment's id.
    static let maximumEntryNumber: Int64 = 0xFFFF_FFFF

    static func key(owner: Int64, entry: Int64) -> Int64 { owner << 32 | entry }

    /// The first entry number of the segment with this id, the one its `documents` leave out.
    static func first(ofSegment id: Int64) -> Int64 { id & maximumEntryNumber }

    /// Adds and removes entry numbers (each sorted ascending) in the postings of `token`,
    /// keeping `tails` current. Returns whether the token still has any.
    ///
    /// With `aboveEveryEntry` (the entries added are numbered above every entry of the store)
    /// and a token that has segments, the entries go to its recent segments, its segments left
    /// unread and unwritten. Otherwise its recent segments, when `recent` says there may be any,
    /// are merged into its segments first; then entries numbered after all of the token's are
    /// appended to its last segment, read only when `tails` does not hold it and the token is not
    /// `isNew` (added by this transaction, with no segment yet), and anything else merges the
    /// segments it touches.
    func update(
        owner token: Int64, adding: Added, removing: [Int64], tails: inout PostingTails, isNew: Bool = false,
        aboveEveryEntry: Bool = false, recent: RecentRows = .absent, in db: Database
    ) throws -> Bool {
        if aboveEveryEntry, !isNew, removing.isEmpty, !adding.documents.isEmpty {
            try appendRecent(owner: token, adding: adding, recent: recent, in: db)
            return true
        }
        if !isNew, recent == .possible { try mergeRecent(owner: token, tails: &tails, in: db) }
        return try updateSegments(owner: token, adding: adding, removing: removing, tails: &tails, isNew: isNew, in: db)
    }

    /// ``update(owner:adding:removing:tails:isNew:aboveEveryEntry:recent:in:)`` on the segments
    /// alone, the token's recent segments merged already or none.
    func updateSegments(
        owner token: Int64, adding: Added, removing: [Int64], tails: inout PostingTails, isNew: Bool, in db: Database
    ) throws -> Bool {
        if removing.isEmpty, let first = adding.documents.first {
            let kept = tails.take(token)
            var tail = try kept ?? (isNew ? nil : lastSegment(of: token, in: db))
            if tail.map({ first > $0.last }) ?? true {
                try append(adding, token: token, to: &tail, in: db)
                if kept != nil { tails[token] = tail } else { tails.admit(tail, for: token) }
                return true
            }
        }
        tails[token] = nil
        guard try update(owner: token, adding: adding, removing: removing, in: db) else { return false }
        tails.admit(try lastSegment(of: token, in: db), for: token)
        return true
    }

    /// Appends `added` to `tail`, the token's last segment in `table` (nil when it has none),
    /// and after it in new segments once it is full; `tail` becomes the last one written.
    func append(
        _ added: Added, token: Int64, to tail: inout PostingTails.Tail?, table: String? = nil, in db: Database
    ) throws {
        let table = table ?? self.table
        try append(added, token: token, to: &tail) { segment in
            try write(
                id: segment.id, count: segment.count, documents: segment.bytes, positions: segment.positions,
                into: table, in: db)
        }
    }

    /// Writes the segments of `token`, which has none yet (numbered above ``lastOwner(in:)``), as rows of
    /// `pending` (``newSegments(in:)``); `tails` keeps its last one as
    /// ``update(owner:adding:removing:tails:isNew:in:)`` would.
    func add(
        owner token: Int64, adding: Added, tails: inout PostingTails,
        into pending: inout MultiRowInsert<PostingTails.Tail>
    ) throws {
        var tail: PostingTails.Tail?
        try append(adding, token: token, to: &tail) { try pending.add($0) }
        tails.admit(tail, for: token)
    }

    /// The segments of `token`, which has none yet, each handed to `sink` in order as
    /// ``add(owner:adding:tails:into:)`` would write them: made without the store, on whichever
    /// thread asks.
    func makeSegments(of token: Int64, adding: Added, into sink: (PostingTails.Tail) -> Void) {
        var tail: PostingTails.Tail?
        append(adding, token: token, to: &tail, writing: sink)
    }

    /// The largest owner that has a segment, 0 when none has: every owner numbered above it
    /// (a token added since its postings were last written) has none, so its segments are
    /// inserted (``add(owner:adding:tails:into:)``) with nothing read. One index seek.
    func lastOwner(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id >> 32 FROM \(table) ORDER BY id DESC LIMIT 1")) ?? 0
    }

    /// Segments inserted many to a statement into `table` (the segments by default): those of
    /// tokens no segment of which exists yet there.
    func newSegments(in db: Database, table: String? = nil) -> MultiRowInsert<PostingTails.Tail> {
        MultiRowInsert(into: table ?? self.table, columns: ["id", "count", "documents", "positions"], in: db) {
            bind, first, segment in
            bind.bind(first, segment.id)
            bind.bind(first + 1, segment.count)
            bind.bind(first + 2, segment.bytes)
            bind.bind(first + 3, segment.positions)
        }
    }

    /// The same, each segment handed to `write` as it is made.
    private func append(
        _ added: Added, token: Int64, to tail: inout PostingTails.Tail?,
        writing write: (PostingTails.Tail) throws -> Void
    ) rethrows {
        var rest = added.documents[...]
        var positions = added.positions[...]
        /// The next entries a segment holding `count` entries in `bytes` bytes takes, and their
        /// position lists, both taken off what is left to append.
        func take(after previous: Int64, count: Int, bytes: Int) -> (ArraySlice<Int64>, ArraySlice<UInt8>) {
            guard let fit = fitting(rest, after: previous, count: count, bytes: bytes, positions: positions) else {
                preconditionFailure("fewer position lists than entries")
            }
            defer { (rest, positions) = (rest.dropFirst(fit.count), positions.dropFirst(fit.positionBytes)) }
            return (rest.prefix(fit.count), positions.prefix(fit.positionBytes))
        }
        if var last = tail {
            let (taken, lists) = take(
                after: last.last, count: last.count, bytes: last.bytes.count + last.positions.count)
            if !taken.isEmpty {
                // Taken out of `tail`, so that appending to its buffers copies nothing.
                tail = nil
                DeltaList.append(taken, after: last.last, to: &last.bytes)
                last.positions += lists
                last.count += taken.count
                last.last = taken.last ?? last.last
                try write(last)
                tail = last
            }
        }
        while let first = rest.first {
            let (segment, lists) = take(after: 0, count: 0, bytes: 0)
            let written = PostingTails.Tail(
                id: Self.key(owner: token, entry: first), count: segment.count, last: segment.last ?? first,
                bytes: DeltaList.bytes(afterFirst: segment), positions: Array(lists))
            try write(written)
            tail = written
        }
    }

    /// How many of `documents` (the first after `previous`) a segment holding `count` entries
    /// in `bytes` bytes can take, up to ``capacity`` entries and ``byteCapacity`` bytes and one
    /// entry at least into an empty segment, and how many bytes of `positions` (their lists,
    /// first) are theirs (none for an owner without positions). Nil when `positions` ends
    /// before the lists of the entries taken.
    private func fitting(
        _ documents: ArraySlice<Int64>, after previous: Int64, count: Int, bytes: Int, positions: ArraySlice<UInt8>
    ) -> (count: Int, positionBytes: Int)? {
        var (taken, size, previous, listsEnd) = (0, bytes, previous, 0)
        let whole = positions.withUnsafeBufferPointer { lists in
            for document in documents {
                guard count + taken < Self.capacity else { return true }
                // A segment's first number is in its id, not its bytes.
                var (entrySize, end) = (count + taken == 0 ? 0 : Varint.size(UInt64(document - previous)), listsEnd)
                if !lists.isEmpty {
                    guard let next = PositionLists.offset(after: 1, in: lists, from: listsEnd) else { return false }
                    (entrySize, end) = (entrySize + next - listsEnd, next)
                }
                guard count + taken == 0 || size + entrySize <= Self.byteCapacity else { return true }
                (taken, size, previous, listsEnd) = (taken + 1, size + entrySize, document, end)
            }
            return true
        }
        return whole ? (taken, listsEnd) : nil
    }

    /// Writes segment `id` into `table` (the segments or the recent ones), replacing it if it
    /// exists. Run directly (``DirectBindings``), as the last segment is read: a write into a
    /// journal rewrites one for each token it shares with the journal.
    private func write(
        id: Int64, count: Int, documents: [UInt8], positions: [UInt8], into table: String, in db: Database
    ) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(table) (id, count, documents, positions) VALUES (?, ?, ?, ?)"
        ).run(in: db) {
            $0.bind(1, id); $0.bind(2, count); $0.bind(3, documents); $0.bind(4, positions)
        }
    }

    /// The last segment of `token` in `table` (the segments by default), its blobs copied once,
    /// straight from SQLite (``DirectColumns``).
    func lastSegment(of token: Int64, table: String? = nil, in db: Database) throws -> PostingTails.Tail? {
        let table = table ?? self.table
        var tail: PostingTails.Tail?
        try db.cachedStatement(
            sql:
                "SELECT id, count, documents, positions FROM \(table) WHERE id BETWEEN ? AND ? ORDER BY id DESC LIMIT 1"
        ).run(in: db) {
            $0.bind(1, Self.key(owner: token, entry: 0))
            $0.bind(2, Self.key(owner: token, entry: Self.maximumEntryNumber))
        } row: { statement in
            let id = statement.int64(atColumn: 0)
            var last: Int64 = 0
            let bytes = statement.withBlob(atColumn: 2) { blob in
                DeltaList.forEach(in: blob, first: Self.first(ofSegment: id)) { last = $0 }
                return [UInt8](blob)
            }
            tail = PostingTails.Tail(
                id: id, count: Int(statement.int64(atColumn: 1)), last: last, bytes: bytes,
                positions: statement.withBlob(atColumn: 3) { [UInt8]($0) })
        }
        return tail
    }

    /// Adds and removes entry numbers (each sorted ascending) in the segments of `token`, an
    /// added entry's positions replacing those it had: for a token without recent segments, or
    /// after they are merged (``mergeRecent(owner:tails:in:)``). Returns whether the token still
    /// has any.
    func update(owner token: Int64, adding: Added, removing: [Int64], in db: Database) throws -> Bool {
        let adding = Merging(documents: Array(adding.documents), positions: Array(adding.positions))
        guard let low = [adding.documents.first, removing.first].compactMap({ $0 }).min(),
            let high = [adding.documents.last, removing.last].compactMap({ $0 }).max()
        else { return true }
        let tokenStart = Self.key(owner: token, entry: 0)
        let rows = try Row.fetchAll(
            segments(holding: low...high, owner: token, columns: "documents, positions", in: [table], db))
        var current = Merging()
        for row in rows {
            DeltaList.forEach(in: row[1] as Data, first: Self.first(ofSegment: row[0])) {
                current.documents.append($0)
            }
            current.positions += row[2] as Data
        }
        let merged = try merge(current, adding: adding, removing: removing)
        if let first = rows.first, let last = rows.last {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id BETWEEN ? AND ?")
                .execute(arguments: [first[0] as Int64, last[0] as Int64])
        }
        var (rest, lists) = (merged.documents[...], merged.positions[...])
        while let first = rest.first {
            guard let fit = fitting(rest, after: 0, count: 0, bytes: 0, positions: lists) else {
                throw JournalError.store("a posting segment's positions are damaged")
            }
            try write(
                id: Self.key(owner: token, entry: first), count: fit.count,
                documents: DeltaList.bytes(afterFirst: rest.prefix(fit.count)),
                positions: Array(lists.prefix(fit.positionBytes)), into: table, in: db)
            (rest, lists) = (rest.dropFirst(fit.count), lists.dropFirst(fit.positionBytes))
        }
        if !merged.documents.isEmpty { return true }
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id BETWEEN ? AND ?)"),
            arguments: [tokenStart, Self.key(owner: token, entry: Self.maximumEntryNumber)]) ?? false
    }

    /// `current` with `adding` merged in and `removing` taken out, all sorted ascending; an
    /// entry in both takes its positions from `adding`.
    private func merge(_ current: Merging, adding: Merging, removing: [Int64]) throws -> Merging {
        let currentLists = try listRanges(current)
        let addedLists = try listRanges(adding)
        // An owner keeps positions in all its postings or in none.
        guard current.documents.isEmpty || adding.documents.isEmpty || (currentLists == nil) == (addedLists == nil)
        else { throw PositionLists.damaged }
        var result = Merging()
        result.documents.reserveCapacity(current.documents.count + adding.documents.count)
        var i = 0, j = 0, k = 0
        func take(_ number: Int64, _ list: Range<Int>?, from source: [UInt8]) {
            while k < removing.count, removing[k] < number { k += 1 }
            if k < removing.count, removing[k] == number { return }
            result.documents.append(number)
            if let list { result.positions += source[list] }
        }
        let (old, new) = (current.documents, adding.documents)
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i] < new[j]) {
                take(old[i], currentLists?[i], from: current.positions)
                i += 1
            } else {
                if i < old.count, old[i] == new[j] { i += 1 }
                take(new[j], addedLists?[j], from: adding.positions)
                j += 1
            }
        }
        return result
    }

    /// Where each entry's position list (with its length) lies in `postings.positions`; nil for
    /// an owner without positions.
    private func listRanges(_ postings: Merging) throws -> [Range<Int>]? {
        guard !postings.positions.isEmpty else { return nil }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(postings.documents.count)
        let whole = postings.positions.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count, let end = PositionLists.offset(after: 1, in: bytes, from: start) {
                ranges.append(start..<end)
                start = end
            }
            return start == bytes.count
        }
        guard whole, ranges.count == postings.documents.count else {
            throw JournalError.store("a posting segment's positions are damaged")
        }
        return ranges
    }

    /// Adds every entry of `token` (or prefix key) to `set`; with `window`, only those numbered
    /// in it, reading only the segments that can hold them.
    func unite(
        owner token: Int64, into set: inout DocumentSet, within window: ClosedRange<Int64>? = nil, in db: Database
    ) throws {
        guard let window else {
            try forEachList(of: token, in: db) { first, list in
                DeltaList.forEach(in: list, first: first) { set.insert($0) }
            }
            return
        }
        let rows = try Row.fetchCursor(segments(holding: window, owner: token, columns: "documents", in: db))
        while let row = try rows.next() {
            DeltaList.forEach(in: row[1] as Data, first: Self.first(ofSegment: row[0])) { number in
                if window.contains(number) { set.insert(number) }
            }
        }
    }

    /// Adds every entry of `owners` to `set`, as ``unite(owner:into:within:in:)`` does for each:
    /// one statement for them all in each table (the owners bound as one JSON array), where a
    /// word that starts hundreds of tokens would run one a token.
    func unite(
        owners: [Int64], into set: inout DocumentSet, within window: ClosedRange<Int64>? = nil, in db: Database
    ) throws {
        guard owners.count > 1 else {
            for owner in owners { try unite(owner: owner, into: &set, within: window, in: db) }
            return
        }
        let range = window ?? 0...Self.maximumEntryNumber
        let arguments: StatementArguments = [
            SQLParameters.jsonArray(owners),
            max(0, min(range.lowerBound, Self.maximumEntryNumber)),
            max(0, min(range.upperBound, Self.maximumEntryNumber)),
        ]
        for table in try tables(in: db) {
            let statement = try ownersSegments(columns: "\(table).id, documents", in: table, db)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while try rows.next() != nil {
                let first = Self.first(ofSegment: statement.int64(atColumn: 0))
                statement.withBlob(atColumn: 1) { list in
                    DeltaList.forEach(in: list, first: first) { number in
                        if range.contains(number) { set.insert(number) }
                    }
                }
            }
        }
    }

    /// Hands `body` the entry numbers of each segment of `owner`, in order: its first and the
    /// ``DeltaList`` of those after it (``DeltaList/forEach(in:first:_:)`` reads them), every
    /// entry of the owner, ascending (the recent segments' after the others'). A list at a time,
    /// so that a caller's work for each number is not a call through a closure.
    func forEachList(of owner: Int64, in db: Database, _ body: (_ first: Int64?, _ list: Data) -> Void) throws {
        for table in try tables(in: db) {
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, documents FROM \(table) WHERE id BETWEEN ? AND ?"),
                arguments: [
                    Self.key(owner: owner, entry: 0), Self.key(owner: owner, entry: Self.maximumEntryNumber),
                ])
            while let row = try rows.next() { body(Self.first(ofSegment: row[0]), row[1]) }
        }
    }

    /// The first number and the count of each segment of `owner`, ascending; with `window`, of
    /// those that can hold numbers in it. For prefix keys an index holds these apart from the
    /// numbers, so a long list is counted without reading it.
    func segmentCounts(
        owner: Int64, within window: ClosedRange<Int64>? = nil, in db: Database
    ) throws -> [(
        first: Int64, count: Int
    )] {
        let rows = try Row.fetchCursor(
            segments(holding: window ?? 0...Self.maximumEntryNumber, owner: owner, columns: "count", in: db))
        var segments: [(first: Int64, count: Int)] = []
        while let row = try rows.next() {
            segments.append((first: (row[0] as Int64) & Self.maximumEntryNumber, count: row[1]))
        }
        return segments
    }

    /// Whether `owners` have more than `limit` entries between them (an entry of two counted
    /// twice), read from their segments' counts only as far as it takes to pass it.
    func haveMoreEntries(than limit: Int, owners: [Int64], in db: Database) throws -> Bool {
        var entries = 0
        for owner in owners {
            let rows = try Row.fetchCursor(
                segments(holding: 0...Self.maximumEntryNumber, owner: owner, columns: "count", in: db))
            while let row = try rows.next() {
                entries += row[1] as Int
                if entries > limit { return true }
            }
        }
        return false
    }

    /// The statement reading the id and `columns` of the segments of `owner` that can hold
    /// numbers in `range`, recent ones after the others: in each table, from the one starting at
    /// or before its start (or the owner's first) to the last starting in it. With `reader`, the
    /// statement cached for that reader alone, so that readers stepping side by side on the same
    /// table (``PositionCursor``) each have their own without compiling one per search.
    func segments(
        holding range: ClosedRange<Int64>, owner: Int64, columns: String, reader: Int? = nil, in db: Database
    ) throws -> Statement {
        try segments(holding: range, owner: owner, columns: columns, reader: reader, in: tables(in: db), db)
    }

    /// The same, from `tables` (the segments, and the recent ones after them when given), in
    /// id order.
    private func segments(
        holding range: ClosedRange<Int64>, owner: Int64, columns: String, reader: Int? = nil, in tables: [String],
        _ db: Database
    ) throws -> Statement {
        let low = max(0, min(range.lowerBound, Self.maximumEntryNumber))
        let high = max(0, min(range.upperBound, Self.maximumEntryNumber))
        // Both tables in id order, merged (SQLite's plan for a compound ORDER BY on rowid
        // ranges): the invariant makes that the recent segments after the others.
        let sql =
            tables.map { table in
                """
                SELECT id, \(columns) FROM \(table)
                WHERE id BETWEEN coalesce((SELECT max(id) FROM \(table) WHERE id BETWEEN ?1 AND ?2), ?1) AND ?3
                """
            }.joined(separator: " UNION ALL ") + (tables.count > 1 ? " ORDER BY 1" : "")
            + (reader.map { " -- reader \($0)" } ?? "")
        let statement = try db.cachedStatement(sql: sql)
        statement.arguments = [
            Self.key(owner: owner, entry: 0), Self.key(owner: owner, entry: low), Self.key(owner: owner, entry: high),
        ]
        return statement
    }

    /// How many entries each token (or prefix key) has.
    func documentCounts(in db: Database) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for table in try tables(in: db) {
            let rows = try Row.fetchCursor(db, sql: "SELECT id >> 32, sum(count) FROM \(table) GROUP BY id >> 32")
            while let row = try rows.next() { counts[row[0], default: 0] += row[1] }
        }
        return counts
    }

    /// Hands `body` each entry of the segments of these tokens that can hold numbers in
    /// `range` (as ``segments(holding:owner:columns:reader:in:)`` bounds them), with the token's
    /// position list there, undecoded (tokens only), token after token, then those of their
    /// recent segments up to the range's end: one statement for them all in each table, the ids
    /// bound as one JSON array, where a statement each costs more than its rows for the
    /// thousands of tokens a letter or two start. Entries outside `range` may come too.
    ///
    /// Tokens whose ids run on without a gap are read by one walk along their rows instead
    /// (every segment up to the range's end), when the tokens are many and the runs few: a
    /// batch numbers its new tokens in text order, so the tokens a letter starts are a few
    /// runs of ids, and a walk costs a row where a lookup costs a descent of the table.
    func forEachPositionList(
        owners tokens: [Int64], within range: ClosedRange<Int64>, in db: Database,
        _ body: (_ entry: Int64, _ list: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard !tokens.isEmpty else { return }
        let low = max(0, min(range.lowerBound, Self.maximumEntryNumber))
        let high = max(0, min(range.upperBound, Self.maximumEntryNumber))
        let runs = Self.idRuns(of: tokens)
        if tokens.count >= Self.tokensForRuns, runs.count * Self.tokensPerRun <= tokens.count {
            for table in try tables(in: db) {
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT id, documents, positions FROM \(table)
                        WHERE id BETWEEN ?1 << 32 AND ?2 << 32 | ?3 AND id & 0xFFFFFFFF <= ?3
                        """)
                for run in runs {
                    try Self.forEachPositionList(
                        in: statement, arguments: [run.lowerBound, run.upperBound, high], body)
                }
            }
            return
        }
        let owners = SQLParameters.jsonArray(tokens)
        for table in try tables(in: db) {
            let statement = try ownersSegments(columns: "\(table).id, documents, positions", in: table, db)
            try Self.forEachPositionList(in: statement, arguments: [owners, low, high], body)
        }
    }

    /// The statement reading `columns` of the segments in `table` of the owners bound as a JSON
    /// array (`?1`) that can hold numbers from `?2` to `?3`, owner after owner, each as
    /// ``segments(holding:owner:columns:reader:in:)`` bounds them.
    private func ownersSegments(columns: String, in table: String, _ db: Database) throws -> Statement {
        // A token's recent segments are few: each read whole, one seek, not two.
        let start =
            table == self.table
            ? "coalesce((SELECT max(id) FROM \(table) WHERE id BETWEEN owner.value << 32 AND owner.value << 32 | ?2), owner.value << 32)"
            : "owner.value << 32"
        return try db.cachedStatement(
            sql: """
                SELECT \(columns) FROM json_each(?1) AS owner JOIN \(table) ON \(table).id BETWEEN
                    \(start) AND owner.value << 32 | ?3
                """)
    }

    /// Tokens at least, and tokens per run of ids at least, for ``forEachPositionList(owners:within:in:_:)``
    /// to walk runs of ids.
    static let tokensForRuns = 256
    static let tokensPerRun = 8

    /// `tokens`' ids, ascending, as runs without a gap.
    static func idRuns(of tokens: [Int64]) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        for id in tokens.sorted() {
            if let last = runs.last, id <= last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, id)
            } else {
                runs.append(id...id)
            }
        }
        return runs
    }

    /// The entries of the rows of `statement` (columns `id`, `documents`, `positions`) with their
    /// position lists. Each row's blobs read where SQLite holds them (``DirectColumns``):
    /// thousands of rows, where a copy of each blob and an array of its entries cost more than
    /// the reading.
    private static func forEachPositionList(
        in statement: Statement, arguments: StatementArguments,
        _ body: (_ entry: Int64, _ list: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while try rows.next() != nil {
            let first = Self.first(ofSegment: statement.int64(atColumn: 0))
            try statement.withBlob(atColumn: 1) { documents in
                try statement.withBlob(atColumn: 2) { positions in
                    try forEachPositionList(
                        first: first, documents: documents.assumingMemoryBound(to: UInt8.self),
                        positions: positions.assumingMemoryBound(to: UInt8.self),
                        body)
                }
            }
        }
    }

    /// The entries of a segment's row (its first number, its `documents` and `positions`) with
    /// their position lists (a staged run's row too, ``PostingRuns``, whose `documents` hold
    /// every number: `first` nil).
    static func forEachPositionList(
        first: Int64?, documents: UnsafeBufferPointer<UInt8>, positions: UnsafeBufferPointer<UInt8>,
        _ body: (_ entry: Int64, _ list: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        var (read, offset, entry) = (0, 0, first ?? 0)
        if let first {
            guard let list = PositionLists.nextList(in: positions, at: &offset) else { throw PositionLists.damaged }
            try body(first, list)
        }
        while read < documents.count {
            guard let gap = Varint.read(documents, at: &read),
                let list = PositionLists.nextList(in: positions, at: &offset)
            else { throw PositionLists.damaged }
            entry &+= Int64(bitPattern: gap)
            try body(entry, list)
        }
    }

    /// Hands `body` every (owner, entry) link of the segments and recent ones, segment by segment, with the
    /// owner's position list in the entry as stored (empty for an owner without positions, and
    /// for an entry past the lists its segment holds).
    func forEachLink(
        in db: Database, _ body: (_ owner: Int64, _ entry: Int64, _ positions: UnsafeBufferPointer<UInt8>) -> Void
    ) throws {
        for table in try tables(in: db) {
            try forEachLink(
                in: try Row.fetchCursor(
                    db, sql: "SELECT id >> 32, documents, positions, id & \(Self.maximumEntryNumber) FROM \(table)"),
                body)
        }
    }

    /// The same for `rows` of (owner, documents, positions, the first number the documents leave
    /// out) laid out as segments are (staged runs' too, ``PostingRuns``, with every number in
    /// their documents and the fourth column null).
    func forEachLink(
        in rows: RowCursor, _ body: (_ owner: Int64, _ entry: Int64, _ positions: UnsafeBufferPointer<UInt8>) -> Void
    ) throws {
        while let row = try rows.next() {
            let owner: Int64 = row[0]
            (row[2] as Data? ?? Data()).withUnsafeBytes { raw in
                let positions = raw.bindMemory(to: UInt8.self)
                var offset = 0
                DeltaList.forEach(in: row[1] as Data? ?? Data(), first: row[3]) { entry in
                    body(
                        owner, entry, PositionLists.nextList(in: positions, at: &offset) ?? .init(start: nil, count: 0))
                }
            }
        }
    }
}
