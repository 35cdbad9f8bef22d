import Foundation
import GRDB

/// `prefix`: the in-memory prefix table finds the tokens starting with each query word (no
/// index descent, no disk), then, as `token`, their documents, newest first.
struct PrefixStrategy: SearchStrategy {
    let name = "prefix"
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes in the in-memory table keyed by first three code points, then postings"

    /// The in-memory table: its footprint, how long loading it from the snapshot takes, and
    /// (with `rebuild`) how long building it from the whole token table takes.
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        stores.prefixTables.reset()
        let table = try stores.prefixTables.current(from: stores.search)
        let load = stores.prefixTables.lastLoad
        var seconds: Double?
        if rebuild {
            let start = ContinuousClock.now
            _ = try StoreDatabase.guarded(stores.search.url) {
                try stores.search.pool.read { db in
                    var fresh = PrefixTable()
                    try PrefixSnapshot.appendNewTokens(from: db, to: &fresh)
                    return fresh.tokenCount
                }
            }
            seconds = secondsSince(start)
        }
        let loadNote = load.map { "loads in \(String(format: "%.1f", $0.seconds * 1000)) ms\($0.fromSnapshot ? " from its snapshot" : " from the token table (no snapshot yet)")" }
        return StrategyStructure(
            description: "in-memory prefix table over \(table.tokenCount) tokens (+ search store postings)",
            bytes: table.memoryFootprint, buildSeconds: seconds,
            note: [loadNote, rebuild ? "build: from the whole token table" : nil].compactMap { $0 }.joined(separator: "; "))
    }

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let table = try stores.prefixTables.current(from: stores.search)
        return try WordPrefixSearch.answer(words: try query.canonicalWords(), in: stores, page: page) { word, _ in
            table.tokenIDs(withPrefix: word)
        }
    }
}
