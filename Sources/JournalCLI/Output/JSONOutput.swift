import Foundation
import JournalKit
import TextReport

/// The JSON objects the commands print with --json: one object, on one line, keys in a fixed order.
enum JSONOutput {
    static func print(_ value: JSONValue) { Swift.print(value.serialized) }

    static func search(_ results: SearchResults, seconds: Double) -> JSONValue {
        .object([
            "query": .string(results.query),
            "strategy": .string(results.strategy),
            "total": .integer(results.total),
            "results": .array(
                results.entries.indices.map { index in
                    let entry = results.entries[index]
                    guard let scores = results.scores, case .fields(let fields) = entry.json else { return entry.json }
                    return .fields(fields + [("score", .number(scores[index]))])
                }),
            "limit": .integer(results.page.limit),
            "offset": .integer(results.page.offset),
            "sort": .string(results.page.order.rawValue),
            "indexing": results.indexing.map(indexing) ?? .null,
            "milliseconds": .number((seconds * 1e6).rounded() / 1e3),
        ])
    }

    /// How far the index was behind when a search answered (``IndexingProgress``).
    static func indexing(_ progress: IndexingProgress) -> JSONValue {
        .object([
            "pending_entries": .integer(progress.pendingEntries),
            "indexed_entries": .integer(progress.indexedEntries),
            "rebuilding": .bool(progress.isRebuilding),
        ])
    }

    /// A page of a list; looking back `onThisDay`, each entry also says how many `years_ago`.
    static func list(total: Int, entries: [Entry], page: PageRequest, onThisDay: OnThisDay? = nil) -> JSONValue {
        .object([
            "total": .integer(total),
            "results": .array(
                entries.map { item in
                    guard let onThisDay, case .fields(let fields) = item.json else { return item.json }
                    return .fields(fields + [("years_ago", .integer(onThisDay.yearsAgo(item.date)))])
                }),
            "limit": .integer(page.limit),
            "offset": .integer(page.offset),
        ])
    }

    static func imported(_ summary: ImportSummary, storeID: UUID, seconds: Double) -> JSONValue {
        let id = { (number: Int64) in JSONValue.string(EntryID(storeID: storeID, number: number).uri) }
        return .object([
            "imported": .integer(summary.count),
            "already_present": .integer(summary.alreadyPresent),
            "empty": .integer(summary.empty),
            "first": summary.ids.map { id($0.lowerBound) } ?? .null,
            "last": summary.ids.map { id($0.upperBound) } ?? .null,
            "resumed": .integer(summary.resumed),
            "bytes": .integer(summary.bytes),
            "seconds": .number((seconds * 1e3).rounded() / 1e3),
        ])
    }

    /// An import that has written part of its input (``PendingImport``).
    static func pendingImport(_ pending: PendingImport) -> JSONValue {
        .object([
            "input": .string(pending.input),
            "under_way": .bool(pending.isUnderWay),
            "written": .integer(pending.written),
            "already_present": .integer(pending.alreadyPresent),
            "empty": .integer(pending.empty),
            "bytes_read": .integer(pending.bytesRead),
            "total_bytes": pending.totalBytes.map { .integer($0) } ?? .null,
        ])
    }

    /// What the main store lost of what the search store applied (``LostEntries``).
    static func lostEntries(_ lost: LostEntries, storeID: UUID) -> JSONValue {
        .object([
            "changes": .array([.integer(Int(lost.changes.lowerBound)), .integer(Int(lost.changes.upperBound))]),
            "entries": .array(
                lost.entries.map { entry in
                    .object([
                        "id": .string(EntryID(storeID: storeID, number: entry.number).uri),
                        "date": entry.date.map { .string($0.iso8601) } ?? .null,
                        "words": .array(entry.words.map(JSONValue.string)),
                    ])
                }),
        ])
    }

    static func statistics(_ stats: JournalStatistics, directory: String) -> JSONValue {
        .object([
            "store": .string(directory),
            "entries": .integer(stats.entries),
            "indexed_entries": .integer(stats.indexedEntries),
            "tokens": .integer(stats.tokens),
            "main_store_bytes": .integer(stats.mainStoreBytes),
            "search_store_bytes": .integer(stats.searchStoreBytes),
            "prefix_table_bytes": .integer(stats.prefixTableBytes),
        ])
    }
}
