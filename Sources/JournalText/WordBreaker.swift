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
    public static func uniqueWords(in text: String) -> [String] { uniqueWordsAndOrder(in: text).unique }

    /// The distinct words of `text` in order of first appearance, and each word of the text in
    /// order as the position of its distinct word: `words(in:)` is `order.map { unique[$0] }`.
    public static func uniqueWordsAndOrder(in text: String) -> (unique: [String], order: [Int32]) {
        var numbering = WordNumbering()
        var (distinct, order): ([Int32], [Int32]) = ([], [])
        numbering.add(text: text, distinct: &distinct, order: &order)
        return (numbering.words, order)
    }

    /// Where the words of `text` are, as UTF-16 offset ranges into it, a piece of the text at a
    /// time: a reader that needs only the words near the start of an enormous text stops after
    /// the first pieces instead of breaking the whole. Each piece is broken as a text of its
    /// own, about `pieceLength` code units long, and keeps only the words that end at least
    /// `margin` units before its end; the next piece starts at the first word it left out, so
    /// that every boundary is found with that much text on either side.
    public static func wordOffsetsByPiece(in text: String, pieceLength: Int = 16_384, margin: Int = 256) -> WordPieces {
        WordPieces(text: text, pieceLength: max(pieceLength, 2 * margin + 1), margin: margin)
    }

    /// The words of one piece of text, as UTF-16 offset ranges into it.
    fileprivate static func wordOffsets(in piece: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var piece = piece
        piece.withUTF8 { utf8 in
            let scratch = UTF16Scratch.forCurrentThread
            scratch.load(utf8: utf8)
            iterate(scratch.current) { ranges.append($0) }
        }
        return ranges
    }

    /// Calls `body` with each word's UTF-8 bytes, sliced from `text` itself. An ASCII text's
    /// words are found without ICU (``ASCIIWords``, the same words): most canonical text is ASCII,
    /// and it then needs neither ICU's iterator nor a UTF-16 copy.
    static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { utf8 in
            if ASCIIBytes.areASCII(utf8) {
                ASCIIWords.forEachWord(in: utf8, body)
            } else {
                forEachWordWithICU(in: utf8, body)
            }
        }
    }

    /// ``forEachWord(in:_:)`` through ICU, whatever the text: ICU reports UTF-16 offsets, which
    /// a cursor walking both encodings at once turns into UTF-8 ones.
    static func forEachWordWithICU(in utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let scratch = UTF16Scratch.forCurrentThread
        scratch.load(utf8: utf8)
        var cursor = OffsetCursor(utf8: utf8)
        iterate(scratch.current) { range in
            let start = cursor.utf8Offset(at: range.lowerBound)
            body(UnsafeBufferPointer(rebasing: utf8[start..<cursor.utf8Offset(at: range.upperBound)]))
        }
    }

    private static func iterate(_ buffer: UTF16Buffer, _ body: (Range<Int>) -> Void) {
        guard cicu_words_begin(buffer.base, Int32(buffer.count)) != 0 else { return }
        var start: Int32 = 0
        var end: Int32 = 0
        while cicu_words_next(&start, &end) != 0 { body(Int(start)..<Int(end)) }
    }
}

/// The word offsets of a text a piece at a time, in order: see
/// ``WordBreaker/wordOffsetsByPiece(in:pieceLength:margin:)``. Each element is one piece's
/// words, as UTF-16 offset ranges into the whole text.
public struct WordPieces: Sequence, IteratorProtocol {
    private let text: String
    private let pieceLength: Int
    private let margin: Int
    private var start: String.Index
    private var startOffset = 0

    fileprivate init(text: String, pieceLength: Int, margin: Int) {
        self.text = text
        self.pieceLength = pieceLength
        self.margin = margin
        start = text.startIndex
    }

    /// The next piece's words, or nil past the end of the text.
    public mutating func next() -> [Range<Int>]? {
        guard start < text.endIndex else { return nil }
        let end = text.unicodeScalars.index(start, offsetBy: pieceLength, limitedBy: text.endIndex) ?? text.endIndex
        let piece = String(text.unicodeScalars[start..<end])
        var words = WordBreaker.wordOffsets(in: piece)
        var advance = piece.utf16.count
        if end < text.endIndex {
            let kept = words.prefix { $0.upperBound <= advance - margin }.count
            // Start the next piece at the first word left out; when none is, past the last word
            // kept (a word's bounds are code point boundaries). A word longer than the piece
            // is cut: there is no better place.
            let restart = kept < words.count ? words[kept].lowerBound : (words.last?.upperBound ?? advance)
            if restart > 0 {
                words.removeSubrange(kept...)
                advance = restart
            }
        }
        let offset = startOffset
        // Through the piece's own UTF-8 offset: a UTF-16 offset into the whole text would make
        // the text index all of itself.
        let restartInPiece = piece.utf16.index(piece.startIndex, offsetBy: advance)
        start = text.utf8.index(start, offsetBy: piece.utf8.distance(from: piece.startIndex, to: restartInPiece))
        startOffset += advance
        return words.map { (offset + $0.lowerBound)..<(offset + $0.upperBound) }
    }
}

/// UTF-16 offsets into a UTF-8 text turned into UTF-8 ones, walking forward only. A struct
/// rather than variables captured by a nested function, which Swift boxes and checks for
/// exclusive access at every step of indexing's innermost loop.
private struct OffsetCursor {
    let utf8: UnsafeBufferPointer<UInt8>
    private var offset8 = 0
    private var offset16 = 0

    init(utf8: UnsafeBufferPointer<UInt8>) { self.utf8 = utf8 }

    /// The UTF-8 offset of UTF-16 offset `target`, at or after the last one asked for.
    mutating func utf8Offset(at target: Int) -> Int {
        while offset16 < target, offset8 < utf8.count {
            let length = UTF8Length.ofSequence(startingWith: utf8[offset8])
            offset8 += length
            offset16 += length == 4 ? 2 : 1
        }
        return offset8
    }
}
