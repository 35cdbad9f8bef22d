import Foundation
import GRDB

/// How an open journal holds the prefix table that the `prefix` strategy looks long words up in
/// (``JournalUse`` decides).
package enum PrefixTableMode: Sendable {
    /// Loaded whole into memory on first use and kept current: every later lookup is a hash
    /// probe that touches no file. For a journal that stays open and answers many searches.
    case inMemory
    /// Mapped from its file: a lookup reads one bucket of it and the few tokens added since it
    /// was saved, and nothing proportional to the vocabulary. For a process that answers one
    /// search and exits.
    case mapped
}

/// The prefix table of one open journal, held as its ``PrefixTableMode`` says.
package final class PrefixTableCache: @unchecked Sendable {
    let mode: PrefixTableMode
    private let lock = NSLock()
    private var table: PrefixTable?
    private var file: PrefixTableFile?

    init(mode: PrefixTableMode) { self.mode = mode }

    /// The ids of the tokens that start with `word` (by code points), as of the read
    /// transaction `db` on the search store at `searchStore`.
    func tokenIDs(withPrefix word: String, in db: Database, searchStore: SearchStore) throws -> [Int64] {
        try lock.withLock {
            switch mode {
            case .inMemory:
                return try current(in: db, searchStore: searchStore).tokenIDs(withPrefix: word)
            case .mapped:
                let tag = try PrefixSnapshot.record(in: db)?.tag
                if file?.tag != tag { file = try PrefixSnapshot.mapped(in: db, searchStore: searchStore) }
                if let file, let ids = file.tokenIDs(withPrefix: word) {
                    return try ids + TokenRange.ids(startingWith: word, after: file.maxTokenID, in: db)
                }
                // No file, or a sealed one found damaged: the token table alone answers.
                return try TokenRange.ids(startingWith: word, after: 0, in: db)
            }
        }
    }

    /// Whether the table is in memory (it is loaded on first use, or by ``prepare(in:searchStore:)``).
    package var isLoaded: Bool { lock.withLock { table != nil } }

    /// Loads the table into memory ahead of the first long word that needs it (in memory only:
    /// a mapped table has nothing to load).
    func prepare(in db: Database, searchStore: SearchStore) throws {
        guard mode == .inMemory else { return }
        try lock.withLock { _ = try current(in: db, searchStore: searchStore) }
    }

    /// The whole table in memory as of `db`: loaded on first use, then brought up to date with
    /// the tokens added since.
    private func current(in db: Database, searchStore: SearchStore) throws -> PrefixTable {
        if var table {
            if try PrefixSnapshot.maxTokenID(in: db) > table.maxTokenID {
                self.table = nil
                try PrefixSnapshot.appendNewTokens(from: db, to: &table)
                self.table = table
            }
            return table
        }
        let loaded = try PrefixSnapshot.load(from: db, searchStore: searchStore).table
        table = loaded
        return loaded
    }

    /// Loads the whole table from `searchStore` into memory again, whatever the mode (what the
    /// benchmark times); `fromFile` says whether it came from the saved file or, without a
    /// usable one, from the token table.
    package func reload(from searchStore: SearchStore) throws(JournalError) -> (table: PrefixTable, fromFile: Bool) {
        try searchStore.read { db in
            try lock.withLock {
                let loaded = try PrefixSnapshot.load(from: db, searchStore: searchStore)
                if mode == .inMemory { table = loaded.table }
                return loaded
            }
        }
    }
}
