import Foundation
import GRDB
import JournalText

/// `contains[n]`: the canonical query in the canonical text stored beside every entry when it
/// was written: the `[cd]` answer with a plain comparison and no folding at query time.
struct StoredCanonicalStrategy: StrategyImplementation {
    let id = StrategyID.containsN
    let family = SearchFamily.substring
    /// It finds what `contains[cd]` finds.
    let equivalence = ContainsStrategy(fold: .cd).equivalence
    let summary = "substring of the canonical text stored at write time: a plain comparison"

    func validate(_ query: SearchQuery) throws(JournalError) {
        _ = try query.text.map { text throws(JournalError) in try substringNeedle(text, fold: Fold.canonical) }
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

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let (total, numbers) = try stores.main.newestFirst(
            matching: .canonical(substringNeedle(plan.needle ?? "", fold: Fold.canonical)), restriction: plan.restriction, page: page,
            cancellation: stores.cancellation)
        return StrategyAnswer(total: total, numbers: numbers)
    }
}
