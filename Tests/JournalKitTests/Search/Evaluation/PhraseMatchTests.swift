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

    /// A phrase's last word that starts more tokens than get a reader each is matched through
    /// the positions its prefix key of two code points keeps: the word that key, or longer (the
    /// key then narrowing the candidates), or shorter, in Latin with accents, Cyrillic, Greek
    /// and Hangul, against the reference, by every word-prefix strategy; again after edits and
    /// deletes have moved the keys' positions.
    @Test func lastWordsOfManyTokensAgreeThroughTheirKeyPositions() throws {
        let scripts: [(stem: String, letters: [String], fillers: [String])] = [
            ("ré", ["a", "é", "o", "ü", "n"], ["le", "la", "de"]),
            ("ко", ["а", "б", "в", "г", "д"], ["и", "не", "на"]),
            ("κα", ["ά", "β", "γ", "δ", "ε"], ["και", "το", "η"]),
            ("한국", ["가", "나", "다", "라", "마"], ["그", "이", "저"]),
        ]
        // Per script, 50 words of the stem: 25 of each of two first letters after it, so that
        // both the stem and the stem with one letter more start more tokens than get a reader.
        let vocabulary = scripts.map { script in
            script.letters.prefix(2).flatMap { first in
                script.letters.flatMap { second in script.letters.map { script.stem + first + second + $0 } }
            }.prefix(50)
        }
        var generator = SplitMix64(seed: 61)
        func pick<T>(_ items: some Collection<T>) -> T {
            items[items.index(items.startIndex, offsetBy: Int(generator.next() % UInt64(items.count)))]
        }
        func text() -> String {
            let script = Int(generator.next() % UInt64(scripts.count))
            return (0..<8).map { _ in
                generator.next() % 2 == 0 ? pick(scripts[script].fillers) : pick(vocabulary[script])
            }.joined(separator: " ")
        }
        let store = try TemporaryJournal()
        try store.importTexts((0..<400).map { _ in text() })
        let strategies = SearchStrategies.all.filter { $0.equivalence == SearchFamily.wordPrefix.rawValue }
        func check(round: String) throws {
            let entries = try store.allEntries()
            let words = entries.map { WordsReference.words(of: $0.text) }
            var phrases: [[String]] = []
            for (index, entry) in words.enumerated() where index.isMultiple(of: 9) {
                for at in 1..<entry.count where entry[at].unicodeScalars.count > 3 {
                    for kept in [1, 2, 3, 4] {
                        var last = String.UnicodeScalarView()
                        last.append(contentsOf: entry[at].unicodeScalars.prefix(kept))
                        phrases.append([entry[at - 1], String(last)])
                    }
                    break
                }
            }
            #expect(phrases.count > 100)
            for sample in phrases {
                let query = "\"" + sample.joined(separator: " ") + "\""
                let expected = Set(
                    words.indices.filter { WordsReference.frequency(of: sample, in: words[$0]) > 0 }.map {
                        entries[$0].id
                    })
                for strategy in strategies {
                    let results = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                    #expect(Set(results.entries.map(\.id)) == expected, "\(round) \(strategy.name) \(query)")
                    #expect(results.total == expected.count, "\(round) \(strategy.name) \(query)")
                }
            }
        }
        // Each stem, and each stem with the letter after it, starts more tokens than get a reader.
        try store.journal.search.pool.read { db in
            for (script, words) in zip(scripts, vocabulary) {
                let stem = Fold.canonical(script.stem)
                let longer = Fold.canonical(words.first!).unicodeScalars.prefix(stem.unicodeScalars.count + 1)
                for prefix in [stem, String(String.UnicodeScalarView(longer))] {
                    let tokens = try TokenRange.ids(startingWith: prefix, in: db)
                    #expect(tokens.count > PhraseMatch.cursorLimit, "\(prefix)")
                }
            }
        }
        try check(round: "imported")
        for _ in 0..<40 {
            let entries = try store.allEntries()
            let entry = pick(entries)
            if generator.next() % 4 == 0 {
                try store.journal.delete(entry.id)
            } else {
                _ = try store.journal.edit(entry.id, text: text())
            }
        }
        try check(round: "edited")
        try store.expectConsistent()
    }

    /// A last word that starts more tokens than are looked up one by one is narrowed through its
    /// prefix key of two code points: the entries where the key stands next, then the word's
    /// tokens in those. The key also starts other words (`tac…` beside `tab…`), which must not
    /// match; checked against the reference counted and as a first page, by every word-prefix
    /// strategy.
    @Test func lastWordsOfThousandsOfTokensAreNarrowedThroughTheirKey() throws {
        let letters = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "k", "l", "m"]
        let many = letters.flatMap { first in letters.flatMap { second in letters.map { "tab" + first + second + $0 } }
        }
        let others = letters.flatMap { first in letters.map { "tac" + first + $0 } }
        let fillers = ["we", "saw", "the", "a"]
        var generator = SplitMix64(seed: 17)
        func pick(_ words: [String]) -> String { words[Int(generator.next() % UInt64(words.count))] }
        let texts = (0..<1_500).map { _ in
            (0..<8).map { index in
                index.isMultiple(of: 2) ? pick(fillers) : generator.next() % 5 == 0 ? pick(others) : pick(many)
            }.joined(separator: " ")
        }
        let store = try TemporaryJournal()
        try store.importTexts(texts)
        let tokens = try store.journal.search.pool.read { db in try TokenRange.ids(startingWith: "tab", in: db) }
        #expect(tokens.count > PhraseMatch.keyNarrowing)
        let words = texts.map(WordsReference.words(of:))
        let phrases = [
            ["the", "tab"], ["we", "taba"], ["saw", "tabab"], ["a", "tabcd"], ["the", "taca"], ["saw", "tab"],
            ["we", "tabmmm"], ["the", "tabzz"],
        ]
        let strategies = SearchStrategies.all.filter { $0.equivalence == SearchFamily.wordPrefix.rawValue }
        for sample in phrases {
            let query = try SearchQuery("\"" + sample.joined(separator: " ") + "\"")
            let expected = Set(
                words.indices.filter { WordsReference.frequency(of: sample, in: words[$0]) > 0 }.map {
                    EntryID(storeID: store.journal.storeID, number: Int64($0 + 1))
                })
            for strategy in strategies {
                let counted = try store.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(Set(counted.entries.map(\.id)) == expected, "\(strategy.name) \(sample)")
                let page = try PageRequest(limit: 20)
                let exact = try store.journal.search(query, strategy: strategy, page: page)
                let first = try store.journal.search(
                    query, strategy: strategy, page: page, progress: nil, cancellation: nil, totalMayFollow: true)
                #expect(first.results.entries.map(\.id) == exact.entries.map(\.id), "\(strategy.name) \(sample)")
            }
        }
    }
}
