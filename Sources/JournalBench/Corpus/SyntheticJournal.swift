import JournalKit

/// A synthetic journal of any size, the same for the same seed: entries of 40–250 words in
/// several languages (Japanese and Chinese written without spaces), each language's words
/// drawn from a vocabulary of its common words followed by a long tail of rarer made-up
/// ones, with Zipf's law for how often each is used, and an open vocabulary that keeps adding
/// words as the journal grows (Heaps' law; the benchmark's sizes table gives the counts).
/// Dates run forward from 2006 with random
/// gaps sized so that the journal spans about twenty years, whatever its size; one entry in
/// fifty is backdated by up to thirty days, as people fill in a day they missed, so that entry
/// numbers follow dates only mostly, as in a real journal. One entry in eight ends with a tag
/// or two (`#travel/japan`), the tags drawn by Zipf's law from a few dozen.
public struct SyntheticJournal: Sequence, Sendable {
    /// How many entries it has.
    public let count: Int
    /// What fixes its content: the same seed gives the same journal.
    public let seed: UInt64
    /// Changes whenever the same seed starts giving another journal.
    public static let version = "v4"
    /// Rarer words per language beyond the common ones, drawn with them by Zipf's law; rarer
    /// still, 14 words in 100 come from an open vocabulary that keeps growing with the journal
    /// (``OpenVocabulary``), and one in 100 is a number.
    public var tailWords = 8_000

    /// The journal of `count` entries that `seed` gives.
    public init(count: Int, seed: UInt64 = 2013) {
        self.count = count
        self.seed = seed
    }

    /// Its entries, oldest first, generated as they are read.
    public func makeIterator() -> Iterator { Iterator(journal: self) }

    /// Generates the entries one at a time, in bounded memory.
    public struct Iterator: IteratorProtocol {
        private var random: SplitMix64
        private var remaining: Int
        private static let start = JournalDate(iso8601: "2006-01-01T07:00:00Z")!
        /// The date of the latest entry not backdated.
        private var date = start
        /// The mean gap between entries, in seconds.
        private let meanGap: Int
        private let vocabularies:
            [(language: CorpusLanguage, words: [String], sampler: ZipfSampler, open: OpenVocabulary)]
        private let languagePicker: [Int]
        /// Draws the tags, apart from the words, so that the words are those of a journal without tags.
        private var tagRandom: SplitMix64
        private static let tags = [
            "travel", "work", "family", "travel/japan", "health", "reading", "ideas", "work/meetings", "gratitude",
            "running",
            "cooking", "travel/france", "music", "friends", "dreams", "garden", "projects/journal", "kids", "sleep",
            "books/fiction",
        ]
        private static let tagSampler = ZipfSampler(count: tags.count)

        init(journal: SyntheticJournal) {
            random = SplitMix64(seed: journal.seed)
            tagRandom = SplitMix64(seed: journal.seed ^ 0x7A65)
            remaining = journal.count
            meanGap = Swift.max(2, 20 * 365 * 86_400 / Swift.max(1, journal.count))
            var vocabularyRandom = SplitMix64(seed: journal.seed ^ 0x5EED)
            vocabularies = CorpusLanguage.all.map { language in
                var words = language.common
                for _ in 0..<journal.tailWords {
                    let pieces =
                        vocabularyRandom.below(language.piecesPerWord.count) + language.piecesPerWord.lowerBound
                    words.append(
                        (0..<pieces).map { _ in language.pieces[vocabularyRandom.below(language.pieces.count)] }
                            .joined())
                }
                return (
                    language, words, ZipfSampler(count: words.count),
                    OpenVocabulary(language: language, seed: journal.seed ^ 0x0BE4)
                )
            }
            languagePicker = CorpusLanguage.all.indices.flatMap {
                Array(repeating: $0, count: CorpusLanguage.all[$0].weight)
            }
        }

        /// The next entry, or nil after the last.
        public mutating func next() -> NewEntry? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            if random.below(100) != 0 {
                date = JournalDate(microseconds: date.microseconds + Int64(1 + random.below(2 * meanGap)) * 1_000_000)
            }
            let (language, words, sampler, open) = vocabularies[languagePicker[random.below(languagePicker.count)]]
            var text = ""
            var left = 40 + random.below(211)
            while left > 0 {
                let length = Swift.min(left, 6 + random.below(13))
                left -= length
                for index in 0..<length {
                    var word: String
                    switch random.below(100) {
                    case 0..<14: word = open.draw(using: &random)
                    case 14: word = String(OpenVocabulary.rank(using: &random))
                    default: word = words[sampler.draw(using: &random)]
                    }
                    if index == 0 && language.spaced { word = word.prefix(1).uppercased() + word.dropFirst() }
                    if index > 0 {
                        if index % 7 == 0 && random.below(3) == 0 { text += language.comma }
                        if language.spaced { text += " " }
                    }
                    text += word
                }
                text += language.sentenceEnd
                if left > 0 && language.spaced { text += " " }
            }
            switch random.below(40) {
            case 0: text += " 🎉"
            case 1: text += " \(random.below(100))%"
            case 2: text += " (\(1 + random.below(12))/\(1 + random.below(28)))"
            default: break
            }
            if tagRandom.below(8) == 0 {
                for _ in 0...tagRandom.below(2) { text += " #" + Self.tags[Self.tagSampler.draw(using: &tagRandom)] }
            }
            guard random.below(50) == 0 else { return NewEntry(date: date, text: text) }
            let backdated = date.microseconds - Int64(random.below(30 * 86_400)) * 1_000_000
            return NewEntry(date: JournalDate(microseconds: Swift.max(Self.start.microseconds, backdated)), text: text)
        }
    }
}
