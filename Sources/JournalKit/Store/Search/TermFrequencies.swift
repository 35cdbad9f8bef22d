import Foundation
import GRDB

/// What relevance reads of the search store beside the postings' entries: how often a token
/// stands in each entry (the length of its position list) and each entry's number of words.
extension SearchStore {
    /// Adds to `frequencies[n]`, for each entry `n` of `documents`, how many of its words are
    /// `token`: the positions the token's postings keep for it, counted without decoding them.
    static func addFrequencies(
        ofToken token: Int64, in documents: DocumentSet, to frequencies: inout [Int64: Int], in db: Database
    ) throws {
        guard let range = documents.bounds else { return }
        try PostingSegments.tokens.forEachPositionList(owner: token, within: range, in: db) { number, list in
            // A varint ends with the one byte of it whose high bit is clear.
            if documents.contains(number) { frequencies[number, default: 0] += list.count { $0 < 0x80 } }
        }
    }

    /// The number of words of each of these entries (ascending) that the store indexes: read
    /// one by one when they are few for the range they span, else in one pass over the range.
    static func lengths(of numbers: [Int64], in db: Database) throws -> [Int64: Int] {
        var lengths: [Int64: Int] = [:]
        lengths.reserveCapacity(numbers.count)
        guard let first = numbers.first, let last = numbers.last else { return lengths }
        if numbers.count * 8 < Int(last - first) {
            let statement = try db.cachedStatement(sql: "SELECT length FROM document WHERE id = ?")
            for number in numbers { lengths[number] = try Int.fetchOne(statement, arguments: [number]) ?? 0 }
            return lengths
        }
        let wanted = Set(numbers)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, length FROM document WHERE id BETWEEN ? AND ?"),
            arguments: [first, last])
        while let row = try rows.next() {
            let number: Int64 = row[0]
            if wanted.contains(number) { lengths[number] = row[1] }
        }
        return lengths
    }
}
