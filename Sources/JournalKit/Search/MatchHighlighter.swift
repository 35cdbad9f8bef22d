import JournalText

/// Where in an entry's original text a query matched, for output to highlight.
public enum MatchHighlighting: Sendable, Equatable {
    /// Words of the text whose canonical tokens start with a query word.
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
    private let needle: [Unicode.Scalar]

    public init(query: SearchQuery, highlighting: MatchHighlighting) {
        self.highlighting = highlighting
        switch highlighting {
        case .wordPrefix:
            queryWords = (try? query.canonicalWords()) ?? []
            needle = []
        case .substring(let fold):
            queryWords = []
            needle = Array((fold?.apply(to: query.text) ?? query.text).unicodeScalars)
        case .none:
            queryWords = []
            needle = []
        }
    }

    /// The matched ranges of `text`, in order.
    public func ranges(in text: String) -> [Range<String.Index>] {
        switch highlighting {
        case .wordPrefix: wordRanges(in: text)
        case .substring(let fold): substringRanges(in: text, fold: fold)
        case .none: []
        }
    }

    private func wordRanges(in text: String) -> [Range<String.Index>] {
        WordBreaker.wordOffsets(in: text).compactMap { offsets in
            let range = String.Index(utf16Offset: offsets.lowerBound, in: text)..<String.Index(utf16Offset: offsets.upperBound, in: text)
            let tokens = WordBreaker.words(in: Fold.canonical(String(text[range])))
            let matched = tokens.contains { token in
                queryWords.contains { token.unicodeScalars.starts(with: $0.unicodeScalars) }
            }
            return matched ? range : nil
        }
    }

    /// Folds the text a character at a time, remembering where each folded code point came
    /// from, finds the needle in the folded code points, and maps each occurrence back.
    private func substringRanges(in text: String, fold: Fold?) -> [Range<String.Index>] {
        guard !needle.isEmpty else { return [] }
        var folded: [Unicode.Scalar] = []
        var origins: [Range<String.Index>] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let piece = String(text[index..<next])
            for scalar in (fold?.apply(to: piece) ?? piece).unicodeScalars {
                folded.append(scalar)
                origins.append(index..<next)
            }
            index = next
        }
        var ranges: [Range<String.Index>] = []
        var start = 0
        while start + needle.count <= folded.count {
            if folded[start..<start + needle.count].elementsEqual(needle) {
                ranges.append(origins[start].lowerBound..<origins[start + needle.count - 1].upperBound)
                start += needle.count
            } else {
                start += 1
            }
        }
        return ranges
    }
}
