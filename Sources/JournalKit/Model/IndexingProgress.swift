/// How far the search index is behind the entries when a search answers: the answer is exact
/// for the journal as it was before the entries written since, which it leaves out.
///
/// A large import is indexed in batches, and none of it is searched until the last one is
/// done: a search during it answers as of before the import, never from part of it, and says
/// so with this. While the index is rebuilt from scratch (after ``Journal/reindex(progress:)-7v3my``,
/// a damaged or replaced search store), there is no earlier answer to give: a search then
/// answers from the entries indexed so far (``isRebuilding``).
public struct IndexingProgress: Sendable, Equatable, Codable {
    /// Entries written (added, changed or deleted) that searches don't see yet.
    public let pendingEntries: Int
    /// How many of them are indexed already (waiting for the rest of their change).
    public let indexedEntries: Int
    /// Whether the index is being rebuilt: searches see the entries indexed so far, in
    /// number order, and `pendingEntries` are the rest.
    public let isRebuilding: Bool

    /// Progress as the journal reports it (public for tests and for apps that show one).
    public init(pendingEntries: Int, indexedEntries: Int, isRebuilding: Bool) {
        self.pendingEntries = pendingEntries
        self.indexedEntries = indexedEntries
        self.isRebuilding = isRebuilding
    }
}
