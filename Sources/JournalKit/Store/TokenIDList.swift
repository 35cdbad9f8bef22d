import Foundation

/// The token ids of one document, kept beside it so that its postings can be found and
/// removed without a second index on the posting table: sorted, delta- and varint-encoded.
enum TokenIDList {
    static func encode(_ ids: [Int64]) -> Data {
        var data = Data(capacity: ids.count * 3)
        var previous: Int64 = 0
        for id in ids.sorted() {
            var delta = UInt64(id - previous)
            previous = id
            while delta >= 0x80 {
                data.append(UInt8(delta & 0x7F) | 0x80)
                delta >>= 7
            }
            data.append(UInt8(delta))
        }
        return data
    }

    static func decode(_ data: Data) -> [Int64] {
        var ids: [Int64] = []
        var previous: Int64 = 0
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in data {
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                previous += Int64(value)
                ids.append(previous)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return ids
    }
}
