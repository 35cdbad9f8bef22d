/// The combining-diacritical-mark blocks that `strip` removes, and nothing else: Japanese
/// voicing marks, Indic vowel signs, Hebrew and Arabic points are letters' parts and stay.
enum DiacriticMarks {
    /// Whether a UTF-16 code unit is one of the stripped marks. Every block is in the BMP, so a
    /// surrogate is never one.
    @inline(__always)
    static func contains(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
        default: false
        }
    }

    /// Removes the marks from a buffer in place.
    static func strip(_ buffer: UTF16Buffer) {
        var kept = 0
        for unit in buffer.units where !contains(unit) {
            buffer.base[kept] = unit
            kept += 1
        }
        buffer.count = kept
    }
}
