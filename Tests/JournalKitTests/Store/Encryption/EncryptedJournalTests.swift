import Foundation
import GRDB
import JournalText
import Testing

@testable import JournalKit

/// An encrypted journal: the same answers as in plain text, no plain text in any file, and a
/// clear error, never wrong data, for a wrong passphrase or an altered file.
@Suite struct EncryptedJournalTests {
    /// Words that appear nowhere but in these entries, so finding their bytes in a file means
    /// the file holds entry text.
    static let secrets = ["Zanzibarian", "quetzalcoatlus", "クロワッサン", "Ærøskøbing", "mignardise"]
    static let texts = [
        "Met the Zanzibarian ambassador at dawn #secretproject",
        "A quetzalcoatlus skeleton at the museum, @secretproject/fossils",
        "朝ごはんはクロワッサンでした",
        "Ferry to Ærøskøbing, cold wind, hot coffee",
        "Dessert: a mignardise and the theory of everything",
    ]

    private static func filled(_ journal: TemporaryJournal) throws {
        for (index, text) in texts.enumerated() {
            try journal.journal.add(
                NewEntry(date: JournalDate(microseconds: Int64(index + 1) * 86_400_000_000), text: text))
        }
    }

    @Test func everyStrategyAnswersAsInPlainText() throws {
        let plain = try TemporaryJournal()
        let encrypted = try TemporaryJournal(passphrase: "correct horse battery staple")
        try Self.filled(plain)
        try Self.filled(encrypted)
        try encrypted.reopen()
        let queries = [
            "the", "zanzibar", "クロワッサン", "ærø", "\"theory of\"", "#secretproject", "coffee OR dessert", "-the",
        ]
        for strategy in SearchStrategies.all {
            for query in queries {
                guard let expected = try? plain.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                else {
                    continue  // a query this strategy reads as a usage error in both
                }
                let found = try encrypted.journal.search(query, strategy: strategy, page: PageRequest(limit: 0))
                #expect(found.total == expected.total, "\(strategy.name) \(query)")
                #expect(
                    found.entries.map(\.id.number) == expected.entries.map(\.id.number), "\(strategy.name) \(query)")
            }
        }
        try encrypted.expectConsistent()
    }

    /// Every file in the journal's folder, with its bytes.
    private func files(in journal: TemporaryJournal) throws -> [(name: String, bytes: Data)] {
        try FileManager.default.contentsOfDirectory(atPath: journal.directory.url.path).sorted().map { name in
            (name, try Data(contentsOf: journal.directory.url.appendingPathComponent(name)))
        }
    }

    private func expectNoPlainText(
        in journal: TemporaryJournal, _ moment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let needles = Self.secrets.flatMap { [$0, $0.lowercased(), Fold.canonical($0)] } + ["secretproject"]
        for (name, bytes) in try files(in: journal) {
            for needle in Set(needles) {
                #expect(
                    bytes.range(of: Data(needle.utf8)) == nil, "\(moment): \(name) holds \"\(needle)\"",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func noFileHoldsTheTextAtAnyMoment() throws {
        let journal = try TemporaryJournal(passphrase: "hunter2 but longer")
        try Self.filled(journal)
        try expectNoPlainText(in: journal, "after adding, the WAL in use")
        let first = try #require(journal.journal.list(PageRequest(limit: 0)).entries.last)
        try journal.journal.edit(first.id, text: first.text + " Zanzibarian again")
        try expectNoPlainText(in: journal, "after an edit")
        journal.close()
        try expectNoPlainText(in: journal, "after closing (the WALs checkpointed)")
        let plain = try TemporaryJournal()
        try Self.filled(plain)
        plain.close()
        // The check can fail: the same entries in plain text are found.
        #expect(try files(in: plain).contains { $0.bytes.range(of: Data("Zanzibarian".utf8)) != nil })
    }

    @Test func aWrongOrMissingPassphraseOpensNothingAndWritesNothing() throws {
        let journal = try TemporaryJournal(passphrase: "the right one")
        try Self.filled(journal)
        journal.close()
        let before = try files(in: journal)
        expectError(.wrongPassphrase) {
            try Journal(directory: journal.directory, passphrase: Passphrase("the wrong one"))
        }
        expectError(.passphraseRequired) { try Journal(directory: journal.directory) }
        #expect(try files(in: journal).map(\.name) == before.map(\.name))
        #expect(try files(in: journal).map(\.bytes) == before.map(\.bytes))
        #expect(try journal.reopen().list(PageRequest(limit: 0)).total == Self.texts.count)
    }

    @Test func aPlainJournalTakesNoPassphrase() throws {
        let journal = try TemporaryJournal()
        journal.close()
        expectError(.usage) { try Journal(directory: journal.directory, passphrase: Passphrase("anything")) }
    }

    @Test func aKeyFileWithALowerCostDoesNotOpen() throws {
        let journal = try TemporaryJournal(passphrase: "cost matters")
        journal.close()
        let url = journal.directory.keyFileURL
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var derivation = try #require(object["derivation"] as? [String: Any])
        derivation["memoryBytes"] = 8192 * 2
        object["derivation"] = derivation
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        expectError(.wrongPassphrase) { try journal.reopen() }
    }

    /// Reads every entry and checks the journal, which reads every page of both stores.
    private func readEverything(_ journal: TemporaryJournal) throws {
        let opened = try journal.reopen()
        _ = try opened.list(PageRequest(limit: 0))
        let verification = try opened.verify()
        if !verification.isConsistent { throw JournalError(.store, "inconsistent: \(verification.problems)") }
    }

    private func expectRefused(
        _ journal: TemporaryJournal, _ change: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: JournalError.self, "\(change)", sourceLocation: sourceLocation) {
            try readEverything(journal)
        }
        #expect(error?.kind == .store, "\(change): \(error?.message ?? "")", sourceLocation: sourceLocation)
        #expect(
            error?.message.contains("journal.sqlite") == true, "\(change): \(error?.message ?? "")",
            sourceLocation: sourceLocation)
        journal.close()
    }

    @Test func anAlteredStoreIsRefusedWithAClearError() throws {
        let journal = try TemporaryJournal(passphrase: "tamper evident")
        try journal.importTexts((0..<400).map { "entry \($0) " + Self.texts[$0 % Self.texts.count] })
        // A page of the entries' text, which reading every entry must read.
        let textPage = try #require(
            try journal.journal.main.pool.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno DESC"
                )
            })
        journal.close()
        try readEverything(journal)
        journal.close()
        let url = journal.directory.mainStoreURL
        let original = try Data(contentsOf: url)
        let page = 4096
        #expect(original.count >= 4 * page)

        var flipped = original
        flipped[(textPage - 1) * page + 100] ^= 0x01
        try flipped.write(to: url)
        expectRefused(journal, "a flipped byte")

        var swapped = original
        swapped.replaceSubrange(page..<2 * page, with: original[2 * page..<3 * page])
        swapped.replaceSubrange(2 * page..<3 * page, with: original[page..<2 * page])
        try swapped.write(to: url)
        expectRefused(journal, "two pages swapped")

        try original.prefix(original.count - page / 2).write(to: url)
        expectRefused(journal, "cut short in a page")

        try original.write(to: url)
        try readEverything(journal)
    }

    /// With enough words, the journal saves its prefix table file, sealed: lookups through it,
    /// mapped as a one-search process maps it, find what the token table holds, and a damaged
    /// chunk makes the lookup fall back to the token table, never answer less.
    @Test func thePrefixTableFileIsSealedAndAnswersLikeTheTokens() throws {
        let journal = try TemporaryJournal(passphrase: "many words")
        try journal.importTexts((0..<1_500).map { "entry number \($0) mentions zorblax\($0) and mignardise" })
        let url = PrefixSnapshot.fileURL(besides: journal.directory.searchStoreURL)
        #expect(FileManager.default.fileExists(atPath: url.path))
        try expectNoPlainText(in: journal, "with the prefix table saved")
        #expect(try Data(contentsOf: url).range(of: Data("zorblax".utf8)) == nil)
        journal.close()
        let mapped = try Journal(directory: journal.directory, passphrase: journal.passphrase, use: .oneAnswer)
        #expect(
            try mapped.search("zorblax14", strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0)).total
                == 111)
        try mapped.close()
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: url)
        let damaged = try Journal(directory: journal.directory, passphrase: journal.passphrase, use: .oneAnswer)
        #expect(
            try damaged.search("zorblax14", strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0)).total
                == 111)
        #expect(
            try damaged.search("zorb", strategy: SearchStrategies[.prefix], page: PageRequest(limit: 0)).total == 1_500)
        let report = try damaged.verify()
        #expect(report.problems.contains { $0.contains("fails authentication") }, "\(report.problems)")
        try damaged.close()
    }

    /// A page put back to an older copy of itself authenticates: the limit the threat model
    /// states. It reads as the older page, never as garbage or a crash, and `verify` finds the
    /// search store disagreeing with it.
    @Test func anOlderCopyOfAPageReadsAsTheOlderPageAndVerifyFindsIt() throws {
        let journal = try TemporaryJournal(passphrase: "rollback")
        try journal.importTexts((0..<300).map { "entry \($0) before the edit" })
        journal.close()
        let url = journal.directory.mainStoreURL
        let before = try Data(contentsOf: url)
        let opened = try journal.reopen()
        let edited = try #require(opened.list(PageRequest(limit: 1)).entries.first)
        try opened.edit(edited.id, text: "entry changed after the copy")
        let page = try #require(
            try opened.main.pool.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT pageno FROM dbstat WHERE name = 'entry' AND pagetype = 'leaf' ORDER BY pageno DESC"
                )
            })
        journal.close()
        var after = try Data(contentsOf: url)
        let range = (page - 1) * 4096..<page * 4096
        #expect(after[range] != before[range], "the edit rewrote the last page of entries")
        after.replaceSubrange(range, with: before[range])
        try after.write(to: url)
        let rolledBack = try journal.reopen()
        #expect(try rolledBack.entry(edited.id).text == edited.text)
        #expect(try !rolledBack.verify().isConsistent)
    }
}
