/// When the postings a batch writes are staged, merged into their owners' segments, or kept in
/// recent segments, and when those are merged: every rule of how the search store's posting
/// tables change over an import, in one place, as Tantivy's merge policy or FTS5's automerge
/// setting is. The writer (``SearchIndexer``) asks; the layouts it writes into
/// (``PostingRuns``, ``PostingSegments``, and the size of a segment, which is the layout's own)
/// do as told.
///
/// Every choice here changes only the cost of writing and reading, never what a search finds:
/// staged runs and recent segments hold the same postings the segments would.
struct MergePolicy: Sendable {
    /// Batches of a hidden insert (or of a rebuild) whose postings are staged as runs before a
    /// batch merges them, each owner's last segment then rewritten once for all of them.
    var runsPerMerge = 8
    /// Recent segments are merged into the segments once their documents are more than one in
    /// this many of the store's: a series of small imports then merges about once each time the
    /// journal doubles, as FTS5's levels do.
    var recentShare = 2

    /// What a batch does with the postings it adds.
    enum Postings: Equatable {
        /// Staged as one more run, merged by a later batch.
        case stage
        /// Staged as one more run, then every run merged into the segments at once.
        case stageAndMerge
        /// Written into the segments (or the recent segments) directly.
        case write
    }

    /// What a batch does with its postings, and whether the staged runs are merged before it
    /// writes (it removes or replaces documents, which the runs must not outlive).
    ///
    /// - Parameters:
    ///   - hidesEntries: the batch may leave its entries hidden from readers: an insert or a
    ///     rebuild that goes on after it.
    ///   - addsOnly: the batch only adds documents, above every document of the store.
    ///   - stagedRuns: how many runs are staged already.
    func plan(hidesEntries: Bool, addsOnly: Bool, stagedRuns: Int) -> (mergeFirst: Bool, postings: Postings) {
        guard addsOnly else { return (stagedRuns > 0, .write) }
        if hidesEntries && stagedRuns + 1 < runsPerMerge { return (false, .stage) }
        return (false, stagedRuns > 0 ? .stageAndMerge : .write)
    }

    /// Whether the recent segments, holding `recentDocuments` of the store's `documents`, are
    /// merged now.
    func mergesRecent(recentDocuments: Int, documents: Int) -> Bool {
        recentDocuments * recentShare > documents
    }
}
