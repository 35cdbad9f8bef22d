import GRDB

/// What a reader of the search store may see: the documents of the changes it has wholly
/// applied, never part of one. A large import is indexed in batches, each its own transaction
/// (so that the store's log and the indexer's memory stay small); until its last batch commits,
/// the documents of its first batches are in the store but hidden from every search, count and
/// score. A rebuild hides its batches likewise, a few at a time.
///
/// Invariant: when `hidden_from` is in `store_info`, the change being applied in part is an
/// insert (or a rebuild's batches since its last merge) whose entries are numbered from it up
/// (numbers above every document of an earlier change), `visible_document_count` / `visible_word_count` are the store's totals before
/// that change's first batch, and `visible_newest_date`, when there, is the date of the newest
/// document then. The indexer sets them in the change's first batch, which holds that change
/// alone, and removes them in the batch that completes it; a reset removes them.
struct SearchVisibility: Sendable {
    /// The first entry number readers may not see, or nil when every document is visible.
    let hiddenFrom: Int64?
    /// The visible documents' count and words, for relevance (``SearchStore/totals(in:)`` when
    /// nothing is hidden).
    let totals: (documents: Int, words: Int)
    /// The date of the newest visible document, when some are hidden (and the store recorded
    /// it): a walk newest first starts there, not at the hidden documents of an import of recent
    /// entries, which it would pass one by one.
    let newestVisibleDate: Int64?
    /// How far the store had applied the main store's history when this was read.
    let position: SearchStore.Position

    static let keys = ["hidden_from", "visible_document_count", "visible_word_count", "visible_newest_date"]

    /// The visibility in the read transaction of `db`, from one read of `store_info`.
    static func read(in db: Database) throws -> SearchVisibility {
        let values = try SearchStore.info(in: db)
        let position = SearchStore.position(from: values)
        guard let hiddenFrom = values["hidden_from"].flatMap(Int64.fromDatabaseValue) else {
            return SearchVisibility(
                hiddenFrom: nil, totals: SearchStore.totals(from: values), newestVisibleDate: nil, position: position)
        }
        return SearchVisibility(
            hiddenFrom: hiddenFrom,
            totals: (
                values["visible_document_count"].flatMap(Int.fromDatabaseValue) ?? 0,
                values["visible_word_count"].flatMap(Int.fromDatabaseValue) ?? 0
            ),
            newestVisibleDate: values["visible_newest_date"].flatMap(Int64.fromDatabaseValue),
            position: position)
    }

    /// Hides the documents numbered `first` and above, the entries of an insert change about to
    /// be applied in part, keeping the totals and the newest date as they are now. Nothing
    /// changes when they are hidden already.
    static func hide(from first: Int64, in db: Database) throws {
        guard try Int64.fetchOne(db, sql: "SELECT value FROM store_info WHERE key = 'hidden_from'") == nil else {
            return
        }
        let totals = try SearchStore.totals(in: db)
        var newestDocument: Int64?
        try DateBuckets.forEachDay(from: nil, until: nil, maximum: Int64.max, in: db) { numbers in
            newestDocument = numbers.first
            return false
        }
        let newest = try newestDocument.flatMap { try SearchStore.date(of: $0, in: db) }
        let insert = try db.cachedStatement(sql: "INSERT INTO store_info (key, value) VALUES (?, ?)")
        for (key, value) in zip(keys, [first, Int64(totals.documents), Int64(totals.words), newest])
        where value != nil {
            try insert.execute(arguments: [key, value])
        }
    }

    /// Shows every document: the change applied in part is complete (or the store was emptied).
    static func showAll(in db: Database) throws {
        // One placeholder per key, so that a key added to `keys` is removed with the others.
        let placeholders = keys.map { _ in "?" }.joined(separator: ", ")
        try db.execute(
            sql: "DELETE FROM store_info WHERE key IN (\(placeholders))", arguments: StatementArguments(keys))
    }

    /// `dates` (a filter's bounds) narrowed to the dates a visible document may have: up to the
    /// newest visible one's, when documents are hidden.
    func narrowed(_ dates: (from: Int64?, until: Int64?)) -> (from: Int64?, until: Int64?) {
        guard let newestVisibleDate, newestVisibleDate < Int64.max else { return dates }
        return (dates.from, min(dates.until ?? Int64.max, newestVisibleDate + 1))
    }

    /// The largest number a visible document may have, given the store's largest.
    func maximum(_ storeMaximum: Int64) -> Int64 {
        hiddenFrom.map { min(storeMaximum, $0 - 1) } ?? storeMaximum
    }

    /// Every number a visible document may have, as a set sized for `maximum`; nil when none is
    /// hidden.
    func visibleNumbers(maximum: Int64) -> DocumentSet? {
        guard let hiddenFrom else { return nil }
        var visible = DocumentSet(maximum: maximum)
        if hiddenFrom > 1 { visible.insert(range: 1...(hiddenFrom - 1)) }
        return visible
    }
}
