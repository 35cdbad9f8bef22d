import CICU

/// The text folds of the search semantics, named by the strategy modifier that uses them.
///
/// - `c`: `NFC(casefold(s))`, for case-insensitive comparison.
/// - `d`: `NFC(strip(NFKD(s)))`, for diacritic-insensitive comparison.
/// - `cd`: `NFC(strip(NFKD(casefold(s))))`, the canonical text stored beside every entry.
public enum Fold: String, Sendable, CaseIterable {
    case c, d, cd

    /// Folds `text`.
    public func apply(to text: String) -> String {
        var text = text
        return text.withUTF8 { apply(toUTF8: $0) }
    }

    /// Folds UTF-8 text (as SQLite hands it to a custom function) without making a `String` first.
    package func apply(toUTF8 utf8: UnsafeBufferPointer<UInt8>) -> String {
        if ASCIIBytes.areASCII(utf8) { return foldASCII(utf8) }
        let scratch = UTF16Scratch.forCurrentThread
        scratch.load(utf8: utf8)
        if self != .d { Fold.caseFold(scratch) }
        if self != .c {
            Fold.normalize(scratch, to: CICU_NFKD)
            DiacriticMarks.strip(scratch.current)
        }
        Fold.normalize(scratch, to: CICU_NFC)
        return scratch.current.string
    }

    /// The canonical text of `text`: `Fold.cd`.
    public static func canonical(_ text: String) -> String { Fold.cd.apply(to: text) }

    /// `NFC(s)`: `text` with its case and marks kept, composed, so that two spellings that look
    /// the same are the same string.
    public static func composed(_ text: String) -> String {
        var text = text
        if text.withUTF8(ASCIIBytes.areASCII) { return text }
        return text.withUTF8 { utf8 in
            let scratch = UTF16Scratch.forCurrentThread
            scratch.load(utf8: utf8)
            Fold.normalize(scratch, to: CICU_NFC)
            return scratch.current.string
        }
    }

    /// For ASCII every fold is the identity but for case folding, which is lowercasing there.
    private func foldASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        guard self != .d else { return String(decoding: utf8, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: utf8.count) { output in
            for (index, byte) in utf8.enumerated() {
                output[index] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            }
            return utf8.count
        }
    }

    private static func caseFold(_ scratch: UTF16Scratch) {
        scratch.step { src, length, dest, capacity, error in cicu_fold_case(dest, capacity, src, length, &error) }
    }

    private static func normalize(_ scratch: UTF16Scratch, to form: cicu_normal_form) {
        var error: Int32 = 0
        let buffer = scratch.current
        let normalizedPrefix = cicu_normalized_prefix_length(form, buffer.base, Int32(buffer.count), &error)
        if error <= 0 && Int(normalizedPrefix) == buffer.count { return }
        scratch.step { src, length, dest, capacity, error in cicu_normalize(form, dest, capacity, src, length, &error) }
    }
}
