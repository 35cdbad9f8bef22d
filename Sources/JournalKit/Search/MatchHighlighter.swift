import JournalText

/// Where in an entry's original text a query matched, for output to highlight.
public enum MatchHighlighting: Sendable, Equatable {
    /// Words of the text whose canonical tokens start with a word the query wants, and the
    /// runs of words that hold one of its phrases (never what it leaves out).
    case wordPrefix
    /// Occurrences of the query in the text, both folded with this fold (nil: as written).
    case substring(Fold?)
    /// Nothing to show (a regular expression).
    case none
}

/// Finds the matched ranges of an entry's text for a query.
public struct MatchHighlighter: Sendable {
    private let highlighting: MatchHighlighting
    private let queryWords: [String]
    private let phrases: [[String]]
    private let needle: [Unicode.Scalar]

    /// A highlighter for `query` as a strategy with `highlighting` matches it.
    public init(query: SearchQuery, highlighting: MatchHighlighting) {
        self.highlighting = highlighting
        switch highlighting {
        case .wordPrefix:
            let wanted = (try? query.parsed.get().wanted) ?? []
            queryWords = wanted.compactMap { if case .word(let word) = $0 { word } else { nil } }
            phrases = wanted.compactMap { if case .phrase(let words) = $0 { words } else { nil } }
            needle = []
        case .substring(let fold):
            queryWords = []
            phrases = []
            needle = Array((fold?.apply(to: query.text ?? "") ?? query.text ?? "").unicodeScalars)
        case .none:
            queryWords = []
            phrases = []
            needle = []
        }
    }

    /// The matched ranges of `text`, in order, up to `window` characters past the first one
    /// (what a snippet can show): the text is read no further, so an enormous entry costs what
    /// its part up to there does.
    public func ranges(in text: String, window: Int = 1_000) -> [Range<String.Index>] {
        switch highlighting {
        case .wordPrefix: wordRanges(in: text, window: window)
        case .substring(let fold): substringRanges(in: text, fold: fold, window: window)
        case .none: []
        }
    }

    /// Folds each word of the text, once per distinct word (text repeats its common words),
    /// walking the UTF-16 offsets ICU reports forward from the last one rather than from the
    /// start of the text. A phrase is matched against the last words folded, and its range runs
    /// from its first word to its last. The text is broken into words a piece at a time, and no
    /// further than the window past the first match.
    private func wordRanges(in text: String, window: Int) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var firstOffset: Int?
        var folded: [Substring: [String]] = [:]
        var recent: [(token: String, range: Range<String.Index>)] = []
        let longestPhrase = phrases.map(\.count).max() ?? 1
        var cursor = (offset: 0, index: text.startIndex)
        func index(atUTF16Offset offset: Int) -> String.Index {
            cursor = (offset, text.utf16.index(cursor.index, offsetBy: offset - cursor.offset))
            return cursor.index
        }
        func add(_ range: Range<String.Index>, at offset: Int) {
            var range = range
            while let last = ranges.last, last.upperBound > range.lowerBound {
                range = min(last.lowerBound, range.lowerBound)..<max(last.upperBound, range.upperBound)
                ranges.removeLast()
            }
            ranges.append(range)
            firstOffset = firstOffset ?? offset
        }
        for offsets in WordBreaker.wordOffsetsByPiece(in: text).joined() {
            if let firstOffset, offsets.lowerBound > firstOffset + window { break }
            let range = index(atUTF16Offset: offsets.lowerBound)..<index(atUTF16Offset: offsets.upperBound)
            let word = text[range]
            let tokens =
                folded[word]
                ?? {
                    let tokens = WordBreaker.words(in: Fold.canonical(String(word)))
                    folded[word] = tokens
                    return tokens
                }()
            for token in tokens {
                recent.append((token, range))
                if recent.count > longestPhrase { recent.removeFirst() }
                if queryWords.contains(where: { token.unicodeScalars.starts(with: $0.unicodeScalars) }) {
                    add(range, at: offsets.lowerBound)
                }
                for phrase in phrases where recent.count >= phrase.count {
                    let run = recent.suffix(phrase.count)
                    let matched =
                        zip(run.dropLast(), phrase.dropLast()).allSatisfy { $0.token == $1 }
                        && run.last!.token.unicodeScalars.starts(with: phrase.last!.unicodeScalars)
                    if matched { add(run.first!.range.lowerBound..<range.upperBound, at: offsets.lowerBound) }
                }
            }
        }
        return ranges
    }

    /// Folds the text a character at a time, remembering where each folded code point came
    /// from, and reports each place the folded code points end with the needle, mapped back.
    private func substringRanges(in text: String, fold: Fold?, window: Int) -> [Range<String.Index>] {
        guard !needle.isEmpty else { return [] }
        var folded: [Unicode.Scalar] = []
        var origins: [Range<String.Index>] = []
        var ranges: [Range<String.Index>] = []
        var firstMatchEnd: Int?
        var index = text.startIndex
        while index < text.endIndex {
            if let firstMatchEnd, folded.count > firstMatchEnd + window { break }
            let next = text.index(after: index)
            let piece = String(text[index..<next])
            for scalar in (fold?.apply(to: piece) ?? piece).unicodeScalars {
                folded.append(scalar)
                origins.append(index..<next)
                let start = folded.count - needle.count
                guard start >= 0, folded[start...].elementsEqual(needle),
                    ranges.last.map({ origins[start].lowerBound >= $0.upperBound }) ?? true
                else { continue }
                ranges.append(origins[start].lowerBound..<origins[folded.count - 1].upperBound)
                firstMatchEnd = firstMatchEnd ?? folded.count
            }
            index = next
        }
        return ranges
    }
}
