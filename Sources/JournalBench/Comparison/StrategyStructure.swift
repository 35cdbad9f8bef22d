import Foundation
import JournalKit
import JournalText

/// The structure a strategy needs beyond the entries themselves, as measured on one journal:
/// what it is, its size, and how long building it takes.
public struct StrategyStructure: Sendable, Equatable {
    /// What it is: "search store (tokens, postings)", "none: every row folded at query time".
    public let description: String
    /// Its size on disk or in memory, when it has one.
    public let bytes: Int?
    /// How long building it from the entries took, measured in this run.
    public let buildSeconds: Double?
    /// Anything else worth knowing (how long loading a table from its file took).
    public let note: String?

    init(description: String, bytes: Int? = nil, buildSeconds: Double? = nil, note: String? = nil) {
        self.description = description
        self.bytes = bytes
        self.buildSeconds = buildSeconds
        self.note = note
    }

    /// Measures `structure` on `journal`: its bytes, and (with `rebuild`) how long building it
    /// again takes; a structure that is missing (the FTS5 index) is built either way.
    static func measure(
        _ structure: SearchStructure, of journal: Journal, rebuild: Bool, progress: ProgressHandler?
    ) throws(JournalError) -> StrategyStructure {
        switch structure {
        case .none:
            return StrategyStructure(description: "none: every row is read at query time")
        case .foldedAtQueryTime:
            return StrategyStructure(description: "none: every row is folded at query time")
        case .compiledPattern(let folded):
            return StrategyStructure(
                description: folded
                    ? "none: a pattern compiled per query, every row folded" : "none: a pattern compiled per query")
        case .canonicalColumn:
            let seconds =
                try rebuild
                ? timed { () throws(JournalError) in try journal.main.forEachText { _ = Fold.cd.apply(toUTF8: $0) } }
                : nil
            return StrategyStructure(
                description: "canonical text column, written with each entry",
                bytes: try journal.main.canonicalTextBytes(),
                buildSeconds: seconds, note: "build: folding every text on one core")
        case .searchStore:
            let seconds =
                try rebuild
                ? timed { () throws(JournalError) in
                    try SearchStore.buildScratchCopy(of: journal.main, like: journal.search)
                } : nil
            return StrategyStructure(
                description: "search store: token table and postings, a separate file",
                bytes: StoreDirectory.fileBytes(journal.search.url), buildSeconds: seconds,
                note: rebuild ? "build: every entry indexed into a new search store" : nil)
        case .prefixTable:
            var loaded: (table: PrefixTable, fromFile: Bool)?
            let loadSeconds = try timed { () throws(JournalError) in
                loaded = try journal.prefixTables.reload(from: journal.search)
            }
            let seconds =
                try rebuild
                ? timed { () throws(JournalError) in _ = try PrefixTable.built(fromTokensOf: journal.search) } : nil
            let from = loaded?.fromFile == true ? " from its file" : " from the token table (no file yet)"
            return StrategyStructure(
                description:
                    "in-memory prefix table over \(loaded?.table.tokenCount ?? 0) tokens (+ per-key entry lists and postings in the search store)",
                bytes: loaded?.table.memoryFootprint, buildSeconds: seconds,
                note: [
                    "loads in \(String(format: "%.1f", loadSeconds * 1000)) ms\(from)",
                    rebuild ? "build: from the whole token table" : nil,
                ]
                .compactMap { $0 }.joined(separator: "; "))
        case .fts5Index:
            var built = false
            var seconds: Double? = try timed { () throws(JournalError) in
                built = try FTS5Peer.build(in: journal.main, progress: progress)
            }
            if !built {
                seconds =
                    try rebuild ? timed { () throws(JournalError) in try FTS5Peer.rebuild(in: journal.main) } : nil
            }
            return StrategyStructure(
                description: "FTS5 index in the main store (unicode61 remove_diacritics 2, prefix='1 2 3')",
                bytes: FTS5Peer.sizeBytes(in: journal.main), buildSeconds: seconds,
                note: seconds == nil ? nil : "build: FTS5 indexing every entry's text")
        }
    }

    /// How long `body` takes, in seconds.
    private static func timed(_ body: () throws(JournalError) -> Void) throws(JournalError) -> Double {
        let start = ContinuousClock.now
        try body()
        return secondsSince(start)
    }
}
