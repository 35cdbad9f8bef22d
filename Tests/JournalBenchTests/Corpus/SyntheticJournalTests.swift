import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct SyntheticJournalTests {
    @Test func isTheSameForTheSameSeedAndDiffersForAnother() {
        let first = Array(SyntheticJournal(count: 50, seed: 1))
        #expect(first == Array(SyntheticJournal(count: 50, seed: 1)))
        #expect(first != Array(SyntheticJournal(count: 50, seed: 2)))
        #expect(
            Array(SyntheticJournal(count: 80, seed: 1).prefix(50)).map(\.text) == first.map(\.text),
            "a longer journal starts with the same texts")
    }

    @Test func spansAboutTwentyYearsWhateverItsSize() throws {
        for count in [50, 5_000] {
            let entries = Array(SyntheticJournal(count: count, seed: 4))
            let years =
                Double(entries.last!.date.microseconds - entries.first!.date.microseconds) / 1e6 / (365 * 86_400)
            #expect((15...25).contains(years), "\(count) entries span \(years) years")
        }
    }

    @Test func writesEntriesOfFortyToTwoHundredFiftyWordsInSeveralLanguagesMostlyInDateOrder() {
        let entries = Array(SyntheticJournal(count: 600, seed: 7))
        #expect(entries.count == 600)
        // About one in fifty is backdated, by at most thirty days, behind the latest date so far.
        var latest = entries[0].date.microseconds
        var backdated = 0
        for entry in entries {
            let date = entry.date.microseconds
            if date < latest {
                backdated += 1
                #expect(latest - date <= 30 * 86_400 * 1_000_000)
            }
            latest = max(latest, date)
        }
        #expect((3...30).contains(backdated), "\(backdated) of 600 backdated")
        var scripts = Set<String>()
        for entry in entries {
            let spaced = entry.text.split(whereSeparator: \.isWhitespace).count
            if entry.text.contains("。") {
                scripts.insert(
                    entry.text.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } ? "ja" : "zh")
                // Unspaced scripts: ICU finds at least as many words as were drawn.
                #expect(WordBreaker.words(in: entry.text).count >= 40)
            } else {
                #expect((40...253).contains(spaced), "\(spaced) words")
                scripts.insert(
                    entry.text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) } ? "ru" : "latin")
            }
        }
        #expect(scripts == ["ja", "zh", "ru", "latin"])
    }

    @Test func followsZipfsLaw() {
        var counts: [String: Int] = [:]
        for entry in SyntheticJournal(count: 300, seed: 3) where !entry.text.contains("。") {
            for word in WordBreaker.words(in: Fold.canonical(entry.text)) { counts[word, default: 0] += 1 }
        }
        let ranked = counts.values.sorted(by: >)
        // Frequency falls roughly as 1/rank (flatter at the very top, where seven languages'
        // most common words mix): a uniform draw would fail both.
        #expect(ranked[0] > 2 * ranked[9])
        #expect(ranked[9] > 20 * ranked[999])
    }

    @Test func itsVocabularyKeepsGrowingWithTheJournal() {
        // Distinct words of the spaced languages (split on white space, punctuation trimmed),
        // in the first 500 entries and in the first 5,000, with a fixed word list of only 500
        // words a language beside the common ones: that list alone would stop growing at once.
        func vocabulary(_ count: Int) -> Int {
            var words = Set<String>()
            var journal = SyntheticJournal(count: count, seed: 11)
            journal.tailWords = 500
            for entry in journal where !entry.text.contains("。") {
                for word in entry.text.split(whereSeparator: \.isWhitespace) {
                    words.insert(word.trimmingCharacters(in: .punctuationCharacters).lowercased())
                }
            }
            return words.count
        }
        let small = vocabulary(500), large = vocabulary(5_000)
        // Heaps' law with an exponent of about 0.5: ten times the text, about three times the words.
        #expect(Double(large) / Double(small) > 2.2, "\(small) → \(large) distinct words")
        #expect(large > 10_000, "\(large) distinct words in 5,000 entries, where the fixed lists hold about 2,300")
    }
}
