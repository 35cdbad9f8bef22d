import CICU

/// `words(s)` of the search semantics: ICU's word break iterator (root locale, with dictionary
/// segmentation for Chinese, Japanese and Thai), keeping numbers, letters, kana and ideographs
/// and dropping spaces, punctuation, symbols and emoji.
public enum WordBreaker {
    /// The words of `text`, in order, repeats included.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { words.append(String(decoding: $0, as: UTF16.self)) }
        return words
    }

    /// The distinct words of `text`, in order of first appearance: an entry's tokens when
    /// `text` is its canonical text.
    public static func uniqueWords(in text: String) -> [String] {
        var seen = Set<String>()
        var words: [String] = []
        forEachWord(in: text) { units in
            let word = String(decoding: units, as: UTF16.self)
            if seen.insert(word).inserted { words.append(word) }
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

    private static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt16>) -> Void) {
        var text = text
        text.withUTF8 { utf8 in
            let scratch = UTF16Scratch.forCurrentThread
            scratch.load(utf8: utf8)
            let units = UnsafeBufferPointer(scratch.current.units)
            iterate(scratch.current) { range in body(UnsafeBufferPointer(rebasing: units[range])) }
        }
    }

    private static func iterate(_ buffer: UTF16Buffer, _ body: (Range<Int>) -> Void) {
        guard cicu_words_begin(buffer.base, Int32(buffer.count)) != 0 else { return }
        var start: Int32 = 0
        var end: Int32 = 0
        while cicu_words_next(&start, &end) != 0 { body(Int(start)..<Int(end)) }
    }
}
