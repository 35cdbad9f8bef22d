import Foundation
import GRDB

/// `prefix`: a word of up to three code points is a key of the prefix table, whose entries the
/// search store keeps precomputed (one list, however many tokens start with it); a longer word
/// finds its tokens in the prefix table (in memory: no index descent, no disk; or mapped from
/// its file: one bucket read), then their entries.
struct PrefixStrategy: StrategyImplementation {
    let id = StrategyID.prefix
    let family = SearchFamily.wordPrefix
    let summary = "word prefixes by the first three code points: precomputed entries per key, or tokens from the in-memory table"

    /// The in-memory table: its footprint, how long loading it from its saved file takes, and
    /// (with `rebuild`) how long building it from the whole token table takes.
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        let table = try stores.readSearch { db in try stores.prefixTables.reload(in: db, searchStore: stores.search) }
        let load = stores.prefixTables.lastLoad
        var seconds: Double?
        if rebuild {
            let start = ContinuousClock.now
            _ = try stores.readSearch { db in
                var fresh = PrefixTable()
                try PrefixSnapshot.appendNewTokens(from: db, to: &fresh)
                return fresh.tokenCount
            }
            seconds = secondsSince(start)
        }
        let loadNote = load.map {
            "loads in \(String(format: "%.1f", $0.seconds * 1000)) ms\($0.fromFile ? " from its file" : " from the token table (no file yet)")"
        }
        return StrategyStructure(
            description: "in-memory prefix table over \(table.tokenCount) tokens (+ per-key entry lists and postings in the search store)",
            bytes: table.memoryFootprint, buildSeconds: seconds,
            note: [loadNote, rebuild ? "build: from the whole token table" : nil].compactMap { $0 }.joined(separator: "; "))
    }

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        try WordPrefixSearch.answer(
            plan, in: stores, page: page,
            lookup: .init(
                postings: { word, db in
                    if word.unicodeScalars.count > 3 {
                        return (.tokens, try stores.prefixTables.tokenIDs(withPrefix: word, in: db, searchStore: stores.search))
                    }
                    return (.prefixKeys, try SearchStore.prefixKeyID(word, in: db).map { [$0] } ?? [])
                },
                tokens: { word, db in
                    word.unicodeScalars.count > 3
                        ? try stores.prefixTables.tokenIDs(withPrefix: word, in: db, searchStore: stores.search)
                        : try TokenRange.ids(startingWith: word, in: db)
                }))
    }
}
