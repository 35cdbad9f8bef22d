import CICU

/// `words(s)` of the search semantics: ICU's word break iterator (root locale, with dictionary
/// segmentation for Chinese, Japanese and Thai), keeping numbers, letters, kana and ideographs
/// and dropping spaces, punctuation, symbols and emoji.
public enum WordBreaker {
    /// The words of `text`, in order, repeats included.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { words.append(String(decoding: $0, as: UTF8.self)) }
        return words
    }

    /// The distinct words of `text` (by code points), in order of first appearance: an entry's
    /// tokens when `text` is its canonical text.
    public static func uniqueWords(in text: String) -> [String] {
        var seen = Set<CodePointKey>(minimumCapacity: 256)
        var words: [String] = []
        words.reserveCapacity(256)
        forEachWord(in: text) { bytes in
            let word = String(decoding: bytes, as: UTF8.self)
            if seen.insert(CodePointKey(word)).inserted { words.append(word) }
        }
        return words
    }

    /// Where the words of `text` are, as UTF-16 offset ranges into it.
    public static func wordOffsets(in text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var text = text
        text.withUTF8 { utf8 in
            let scratch = UTF16Scratch.forCurrentThread
            scratch.load(utf8: utf8)
            iterate(scratch.current) { ranges.append($0) }
        }
        return ranges
    }

    /// Calls `body` with each word's UTF-8 bytes, sliced from `text` itself: ICU reports UTF-16
    /// offsets, which a cursor walking both encodings at once turns into UTF-8 ones.
    private static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { utf8 in
            let scratch = UTF16Scratch.forCurrentThread
            scratch.load(utf8: utf8)
            var offset16 = 0
            var offset8 = 0
            func advance(to target: Int) {
                while offset16 < target, offset8 < utf8.count {
                    let length = UTF8Length.ofSequence(startingWith: utf8[offset8])
                    offset8 += length
                    offset16 += length == 4 ? 2 : 1
                }
            }
            iterate(scratch.current) { range in
                advance(to: range.lowerBound)
                let start = offset8
                advance(to: range.upperBound)
                body(UnsafeBufferPointer(rebasing: utf8[start..<offset8]))
            }
        }
    }

    private static func iterate(_ buffer: UTF16Buffer, _ body: (Range<Int>) -> Void) {
        guard cicu_words_begin(buffer.base, Int32(buffer.count)) != 0 else { return }
        var start: Int32 = 0
        var end: Int32 = 0
        while cicu_words_next(&start, &end) != 0 { body(Int(start)..<Int(end)) }
    }
}
