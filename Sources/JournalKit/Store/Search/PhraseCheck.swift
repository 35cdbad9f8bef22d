import Foundation
import GRDB
import GRDBSQLite

/// Whether a document holds a phrase: its words side by side, each but the last equal to its
/// word and the last a prefix. Read from the document's words in order (``WordOrder``), one
/// row per candidate, so the entry's text is neither read nor broken into words again.
///
/// A common phrase checks hundreds of thousands of candidates, so the check reads each row's
/// blobs in place through SQLite's own statement (GRDB's rows copy them), and allocates
/// nothing per candidate: profiled on `"the the"` over 1,000,000 entries, the copies, the
/// decoded arrays and a hash lookup per token took two thirds of the time.
struct PhraseCheck {
    /// The token id of each word but the last, ascending, with its place in the phrase.
    private let exactAscending: [(id: Int64, place: Int)]
    /// Bit `id` is set for each token the last word starts.
    private let last: [UInt64]
    private let statement: Statement
    /// Per candidate: the rank of each exact word's token, whether each rank is one the last
    /// word starts, and the ranks of the words just read.
    private var exactRanks: [Int32]
    private var lastRanks: [Bool] = []
    private var window: [Int32]

    /// Nil when no document can hold the phrase (a word but the last is no token, or the last
    /// starts none).
    init?(exact: [Int64?], lastTokens: [Int64], in db: Database) throws {
        guard let largest = lastTokens.max(), largest >= 0, case let ids = exact.compactMap({ $0 }),
            ids.count == exact.count
        else {
            return nil
        }
        exactAscending = ids.enumerated().map { (id: $0.element, place: $0.offset) }.sorted { $0.id < $1.id }
        var bits = [UInt64](repeating: 0, count: Int(largest / 64) + 1)
        for id in lastTokens where id >= 0 { bits[Int(id / 64)] |= 1 << UInt64(id % 64) }
        last = bits
        exactRanks = [Int32](repeating: -1, count: ids.count)
        window = [Int32](repeating: -1, count: ids.count)
        statement = try db.cachedStatement(sql: "SELECT tokens, words FROM document WHERE id = ?")
    }

    /// The candidates that hold the phrase.
    mutating func filter(_ candidates: DocumentSet, maximum: Int64) throws -> DocumentSet {
        var holding = DocumentSet(maximum: maximum)
        for number in candidates.members where try holds(number) { holding.insert(number) }
        return holding
    }

    private mutating func holds(_ number: Int64) throws -> Bool {
        let raw = statement.sqliteStatement
        // Reset once read: a statement left stepping would keep its connection's read
        // transaction, and with it an old snapshot of the store, open after the search.
        defer { sqlite3_reset(raw) }
        sqlite3_bind_int64(raw, 1, number)
        let step = sqlite3_step(raw)
        guard step == SQLITE_ROW else {
            if step == SQLITE_DONE { return false }
            throw DatabaseError(
                resultCode: ResultCode(rawValue: step), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(raw)))
            )
        }
        let tokens = UnsafeBufferPointer(
            start: sqlite3_column_blob(raw, 0)?.assumingMemoryBound(to: UInt8.self),
            count: Int(sqlite3_column_bytes(raw, 0)))
        if lastRanks.count < tokens.count { lastRanks = [Bool](repeating: false, count: tokens.count * 2) }
        guard markTokens(tokens) else { return false }
        let words = UnsafeBufferPointer(
            start: sqlite3_column_blob(raw, 1)?.assumingMemoryBound(to: UInt8.self),
            count: Int(sqlite3_column_bytes(raw, 1)))
        return findsPhrase(in: words)
    }

    /// Walks the document's token ids (ascending, as a ``DeltaList``): the rank of each exact
    /// word's token, and which ranks the last word may be. False when an exact word's token or
    /// every token of the last word is missing.
    private mutating func markTokens(_ tokens: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in exactRanks.indices { exactRanks[index] = -1 }
        let exactAscending = self.exactAscending
        let last = self.last
        var (foundExact, anyLast) = (0, false)
        exactRanks.withUnsafeMutableBufferPointer { exactRanks in
            lastRanks.withUnsafeMutableBufferPointer { lastRanks in
                var (position, id, rank, nextExact) = (0, Int64(0), 0, 0)
                while let delta = Varint.read(tokens, at: &position) {
                    id &+= Int64(bitPattern: delta)
                    while nextExact < exactAscending.count, exactAscending[nextExact].id < id { nextExact += 1 }
                    while nextExact < exactAscending.count, exactAscending[nextExact].id == id {
                        exactRanks[exactAscending[nextExact].place] = Int32(rank)
                        foundExact += 1
                        nextExact += 1
                    }
                    let word = Int(id / 64)
                    let isLast = id >= 0 && word < last.count && last[word] & (1 << UInt64(id % 64)) != 0
                    lastRanks[rank] = isLast
                    anyLast = anyLast || isLast
                    rank += 1
                }
            }
        }
        return foundExact == exactRanks.count && anyLast
    }

    /// Whether the words (``WordOrder``) hold the exact ranks in order followed by a rank the
    /// last word may be: read once, keeping the last few ranks in a ring, stopping at the
    /// first occurrence.
    private mutating func findsPhrase(in words: UnsafeBufferPointer<UInt8>) -> Bool {
        let size = window.count
        return exactRanks.withUnsafeBufferPointer { exactRanks in
            lastRanks.withUnsafeBufferPointer { lastRanks in
                window.withUnsafeMutableBufferPointer { window in
                    var (position, read, head) = (0, 0, 0)
                    while let value = Varint.read(words, at: &position) {
                        let rank = Int(truncatingIfNeeded: value)
                        if read >= size, rank < lastRanks.count, lastRanks[rank] {
                            var matched = true
                            for offset in 0..<size where window[(head + offset) % size] != exactRanks[offset] {
                                matched = false
                                break
                            }
                            if matched { return true }
                        }
                        window[head] = Int32(truncatingIfNeeded: rank)
                        head = (head + 1) % size
                        read += 1
                    }
                    return false
                }
            }
        }
    }
}
