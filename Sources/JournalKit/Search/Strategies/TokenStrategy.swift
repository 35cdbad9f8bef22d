import Foundation
import GRDB

/// `token`: each query word as a range scan on the search store's token index
/// (`text >= 'the' AND text < 'thf'`), documents intersected across words, newest first.
struct TokenStrategy: StrategyImplementation {
    let id = StrategyID.token
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes as range scans on the token index of the separate search store"

    /// The search store: its files' bytes, and (with `rebuild`) how long indexing every entry
    /// into a new, temporary search store takes: encrypted as the journal is (under a key of
    /// its own), so that nothing of an encrypted journal lands in the temporary folder in plain
    /// text.
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        let bytes = StoreDirectory.fileBytes(stores.search.url)
        var seconds: Double?
        if rebuild {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-rebuild-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try StoreDirectory(folder).prepare(create: true)
            let start = ContinuousClock.now
            let scratch = try SearchStore(
                url: folder.appendingPathComponent("search.sqlite"), mainStoreID: stores.main.storeID, encryption: stores.search.encryption,
                identity: .scratchSearchStore)
            try SearchIndexer(main: stores.main, search: scratch).catchUp()
            seconds = secondsSince(start)
        }
        return StrategyStructure(
            description: "search store: token table and postings, a separate file", bytes: bytes, buildSeconds: seconds,
            note: rebuild ? "build: every entry indexed into a new search store" : nil)
    }

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        try WordPrefixSearch.answer(
            plan, in: stores, page: page,
            lookup: .init(
                postings: { word, db in (.tokens, try TokenRange.ids(startingWith: word, in: db)) },
                tokens: { word, db in try TokenRange.ids(startingWith: word, in: db) }))
    }
}
