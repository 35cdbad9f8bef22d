import Foundation

extension UUID {
    /// The UUID whose text, as UTF-8 bytes, is `text`: 32 hex digits in groups of 8, 4, 4, 4
    /// and 12 with dashes between, as `uuidString` writes it; lower-case digits too only when
    /// `lowercase` allows them. Read without making a `String`, for the identifiers sync reads
    /// once per record.
    init?(hyphenatedHex text: Slice<UnsafeBufferPointer<UInt8>>, lowercase: Bool) {
        guard text.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let filled = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var (index, high) = (0, true)
            for (offset, character) in text.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                let value: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
                case UInt8(ascii: "a")...UInt8(ascii: "f") where lowercase: value = character - UInt8(ascii: "a") + 10
                default: return false
                }
                if high {
                    bytes[index] = value << 4
                } else {
                    bytes[index] |= value
                    index += 1
                }
                high.toggle()
            }
            return true
        }
        guard filled else { return nil }
        self.init(uuid: uuid)
    }
}
