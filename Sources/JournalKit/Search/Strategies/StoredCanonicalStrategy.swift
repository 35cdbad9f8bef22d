import Foundation
import GRDB
import JournalText

/// `contains[n]`: the canonical query in the canonical text stored beside every entry when it
/// was written: the `[cd]` answer with a plain comparison and no folding at query time.
struct StoredCanonicalStrategy: StrategyImplementation {
    let name = "contains[n]"
    let family = SearchFamily.substring
    let equivalence = "substring[cd]"
    let summary = "substring of the canonical text stored at write time: a plain comparison"

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try needle(query)
    }

    private func needle(_ query: SearchQuery) throws(JournalError) -> String {
        try SubstringSearch.needle(query, fold: Fold.canonical, strategy: name)
    }

    /// The canonical column: its bytes, and how long computing it for every entry takes (done
    /// once, when each entry is written).
    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        try StoreDatabase.guarded(stores.main.url) {
            try stores.main.pool.read { db in
                let bytes = try Int.fetchOne(db, sql: "SELECT coalesce(sum(length(CAST(canonical AS BLOB))), 0) FROM entry") ?? 0
                var seconds: Double?
                if rebuild {
                    let start = ContinuousClock.now
                    let texts = try Row.fetchCursor(db, sql: "SELECT CAST(text AS BLOB) FROM entry")
                    while let row = try texts.next() {
                        _ = (row[0] as Data).withUnsafeBytes { Fold.cd.apply(toUTF8: $0.bindMemory(to: UInt8.self)) }
                    }
                    seconds = secondsSince(start)
                }
                return StrategyStructure(
                    description: "canonical text column, written with each entry", bytes: bytes, buildSeconds: seconds,
                    note: "build: folding every text on one core")
            }
        }
    }

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        try SubstringSearch.answer(
            where: "instr(CAST(canonical AS BLOB), ?) > 0", arguments: [SubstringSearch.bytes(needle(query))], in: stores, page: page)
    }
}
