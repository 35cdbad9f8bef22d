/// Whether UTF-8 text is ASCII throughout: the test that lets folding and word breaking skip ICU
/// (``Fold``, ``ASCIIWords``), eight bytes at a time.
enum ASCIIBytes {
    /// Whether every byte of `utf8` is ASCII.
    static func areASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= utf8.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < utf8.count {
            high |= UInt64(utf8[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
