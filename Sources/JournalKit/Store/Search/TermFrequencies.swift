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
        let rows = try Row.fetchCursor(
            PostingSegments.tokens.segments(holding: range, owner: token, columns: "documents, positions", in: db))
        while let row = try rows.next() {
            (row[1] as Data).withUnsafeBytes { raw in
                let positions = raw.bindMemory(to: UInt8.self)
                var offset = 0
                DeltaList.forEach(in: row[0] as Data) { number in
                    guard let list = PositionLists.nextList(in: positions, at: &offset), documents.contains(number)
                    else { return }
                    // A varint ends with the one byte of it whose high bit is clear.
                    frequencies[number, default: 0] += list.count { $0 < 0x80 }
                }
            }
        }
    }

    /// The number of words of each of these entries that the store indexes.
    static func lengths(of numbers: [Int64], in db: Database) throws -> [Int64: Int] {
        let statement = try db.cachedStatement(sql: "SELECT length FROM document WHERE id = ?")
        var lengths: [Int64: Int] = [:]
        lengths.reserveCapacity(numbers.count)
        for number in numbers {
            lengths[number] = try Int.fetchOne(statement, arguments: [number]) ?? 0
        }
        return lengths
    }
}
