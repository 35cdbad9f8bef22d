import JournalText

/// What the phrase and relevance tests check the index against, written from the entries'
/// texts alone: each entry's words in order, and how often a term stands in them.
enum WordsReference {
    /// An entry's words in order, as the index reads its text.
    static func words(of text: String) -> [String] { WordBreaker.words(in: Fold.canonical(text)) }

    /// How many of `words` a term matches: a word (one item), the words it starts; a phrase,
    /// its occurrences side by side (overlapping ones each counted), its last word a prefix.
    static func frequency(of term: [String], in words: [String]) -> Int {
        guard term.count > 1 else { return words.count { $0.unicodeScalars.starts(with: term[0].unicodeScalars) } }
        guard words.count >= term.count else { return 0 }
        return (0...(words.count - term.count)).count { start in
            term.indices.allSatisfy { index in
                index == term.count - 1
                    ? words[start + index].unicodeScalars.starts(with: term[index].unicodeScalars)
                    : words[start + index] == term[index]
            }
        }
    }
}
