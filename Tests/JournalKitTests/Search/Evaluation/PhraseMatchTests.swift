import Foundation
import JournalText
import Testing

@testable import JournalBench
@testable import JournalKit

/// Phrases answered from the positions in the postings, against a straightforward reference:
/// each entry's words in order, read from its text, searched for the phrase's words side by
/// side (the last one as a prefix), by every word-prefix strategy.
@Suite struct PhraseMatchTests {
    @Test func phrasesAgreeWithTheEntriesWordsInOrder() throws {
        let store = try TemporaryJournal()
        var texts = SyntheticJournal(count: 1_200, seed: 21).map(\.text)
        // A word many times in one entry, a phrase that overlaps itself, one word repeated.
        texts += ["the the the the", "a b a b a b c", "rain rain and more rain rain"]
        // Greek, with its accents and final sigma, beside the generator's scripts.
        let greek = [
            "το", "σπίτι", "είναι", "μεγάλο", "η", "θάλασσα", "ήταν", "ήσυχη", "όλοι", "ξέρουν", "τους", "δρόμους",
        ]
        var mixing = SplitMix64(seed: 3)
        texts += (0..<40).map { _ in
            (0..<9).map { _ in greek[Int(mixing.next() % UInt64(greek.count))] }.joined(separator: " ")
        }
        try store.importTexts(texts)
        let words = texts.map(WordsReference.words(of:))
        var generator = SplitMix64(seed: 8)
        var phrases: [[String]] = [["the", "the"], ["the", "the", "the", "th"], ["a", "b", "c"], ["rain", "rain"]]
        while phrases.count < 160 {
            let entry = words[Int(generator.next() % UInt64(words.count))]
            guard entry.count >= 2 else { continue }
            let length = 2 + Int(generator.next() % 3)
            let start = Int(generator.next() % UInt64(max(1, entry.count - length + 1)))
            var phrase = Array(entry[start..<min(entry.count, start + length)])
            guard phrase.count >= 2 else { continue }
            switch generator.next() % 4 {
            case 0:
                // The last word cut to a prefix, as it is while it is being typed.
                let last = Array(phrase[phrase.count - 1].unicodeScalars)
                let kept = 1 + Int(generator.next() % UInt64(last.count))
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: last.prefix(kept))
                phrase[phrase.count - 1] = String(prefix)
            case 1:
                // Words of the same entry that are not side by side.
                phrase = [
                    entry[Int(generator.next() % UInt64(entry.count))],
                    entry[Int(generator.next() % UInt64(entry.count))],
                ]
            default:
                break
            }
            phrases.append(phrase)
        }
        // In every script, phrases whose last word is one or two code points long: a prefix key.
        for entry in words.indices where entry.isMultiple(of: 23) && words[entry].count >= 2 {
            for kept in [1, 2] {
                var last = String.UnicodeScalarView()
                last.append(contentsOf: words[entry][1].unicodeScalars.prefix(kept))
                phrases.append([words[entry][0], String(last)])
            }
        }
        let strategies = SearchStrategies.all.filter { $0.equivalence == SearchFamily.wordPrefix.rawValue }
        #expect(strategies.count >= 2)
        var found = 0
        for sample in phrases {
            // The query's words as the query reads them: a prefix of a word in a script without
            // spaces may break into other words than the whole word did.
            let query = "\"" + sample.joined(separator: " ") + "\""
            let phrase = WordsReference.words(of: sample.joined(separator: " "))
            let expected = Set(
                words.indices.filter { WordsReference.frequency(of: phrase, in: words[$0]) > 0 }.map {
                    EntryID(storeID: store.journal.storeID, number: Int64($0 + 1))
                })
            found += expected.isEmpty ? 0 : 1
            for strategy in strategies {
                let results = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(Set(results.entries.map(\.id)) == expected, "\(strategy.name) \(query)")
                #expect(results.total == expected.count, "\(strategy.name) \(query)")
            }
        }
        // The sample holds both phrases that are found and phrases that are not.
        #expect(found > 100 && found < phrases.count)
        // Of which some end in a Greek key.
        let greekWords = Set(greek.flatMap(WordsReference.words(of:)))
        #expect(phrases.contains { $0.count == 2 && $0[1].count == 1 && greekWords.contains($0[0]) })
    }
}
