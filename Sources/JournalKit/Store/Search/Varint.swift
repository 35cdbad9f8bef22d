import Foundation

/// LEB128 variable-length integers: seven bits a byte, high bit set on all but the last.
enum Varint {
    static func append(_ value: UInt64, to data: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            data.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        data.append(UInt8(value))
    }

    /// How many bytes `value` takes.
    static func size(_ value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 6) / 7) }

    /// Reads one value at `position` and moves past it; nil when the bytes end inside it.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
