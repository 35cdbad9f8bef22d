import Foundation

/// The token ids of one document, kept beside it so that its postings can be found and
/// removed without a second index on the posting table: sorted, delta- and varint-encoded.
enum TokenIDList {
    static func encode(_ ids: [Int64]) -> Data {
        var data = Data(capacity: ids.count * 3)
        var previous: Int64 = 0
        for id in ids.sorted() {
            Varint.append(UInt64(id - previous), to: &data)
            previous = id
        }
        return data
    }

    static func decode(_ data: Data) -> [Int64] {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var ids: [Int64] = []
            var position = 0
            var previous: Int64 = 0
            while let delta = Varint.read(bytes, at: &position) {
                previous += Int64(delta)
                ids.append(previous)
            }
            return ids
        }
    }
}
