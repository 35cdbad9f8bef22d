import Foundation
import JournalKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every bad input gives one clear line on standard error, the documented exit status, and
/// leaves both stores exactly as they were.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var lines: [String]? = nil
        var rawInput: [UInt8]? = nil
        let status: Int32
        let message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "malformed JSON line", arguments: ["import"], lines: [#"{"text": "fine"}"#, #"{"text": "broken"#],
            status: 1,
            message: "line 2: malformed JSON"),
        Case(
            name: "file cut off mid-line", arguments: ["import"],
            rawInput: Array("{\"text\": \"ok\"}\n{\"text\": \"cut of".utf8),
            status: 1, message: "line 2: malformed JSON"),
        Case(
            name: "invalid UTF-8", arguments: ["import"],
            rawInput: Array(#"{"text": "ok"}"#.utf8) + [0x0A] + Array(#"{"text": ""#.utf8) + [0xC3, 0x28]
                + Array(#""}"#.utf8), status: 1,
            message: "line 2: invalid UTF-8"),
        Case(
            name: "missing text", arguments: ["import"], lines: [#"{"text": "fine"}"#, #"{"date": "2024-01-01"}"#],
            status: 1,
            message: #"line 2: missing "text""#),
        Case(
            name: "text not a string", arguments: ["import"], lines: [#"{"text": ["a"]}"#], status: 1,
            message: #"line 1: "text" must be a string"#),
        Case(
            name: "bad date in import", arguments: ["import"],
            lines: [#"{"text": "a"}"#, #"{"text": "b", "date": "2024-02-30T10:00:00Z"}"#], status: 1,
            message: "line 2: bad date"),
        Case(
            name: "raw NUL byte", arguments: ["import"],
            rawInput: Array(#"{"text": "a"#.utf8) + [0x00] + Array(#"b"}"#.utf8), status: 1,
            message: "line 1: malformed JSON"),
        Case(
            name: "jrnl file with text before its first entry", arguments: ["import", "--format", "txt"],
            rawInput: Array("notes\n[2020-08-29 11:11] Entry.\n".utf8), status: 1,
            message: "line 1: text before the first entry"),
        Case(
            name: "jrnl JSON with a bad date", arguments: ["import"],
            rawInput: Array(#"{"tags": {}, "entries": [{"title": "a", "date": "2020-01-01", "time": "25:00"}]}"#.utf8),
            status: 1,
            message: #"entry 1: bad date "2020-01-01 25:00""#),
        Case(
            name: "Day One JSON without a creation date", arguments: ["import"],
            rawInput: Array(
                #"{"metadata": {}, "entries": [{"uuid": "A1", "creationDate": "2023-04-01T07:30:00Z", "text": "a"}, {"uuid": "B2", "text": "b"}]}"#
                    .utf8),
            status: 1, message: #"entry 2 (uuid B2): missing "creationDate""#),
        Case(
            name: "zip that is not Day One's", arguments: ["import"],
            rawInput: [0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60),
            status: 1, message: "not a readable zip archive"),
        Case(
            name: "unknown import format", arguments: ["import", "--format", "csv"], lines: [#"{"text": "a"}"#],
            status: 2, message: "csv"),
        Case(
            name: "missing import file", arguments: ["import", "/nonexistent/entries.jsonl"], status: 1,
            message: "cannot read /nonexistent/entries.jsonl"),
        Case(name: "bad --date", arguments: ["add", "--date", "next week", "text"], status: 2, message: "next week"),
        Case(name: "empty entry", arguments: ["add", " "], status: 1, message: "the text is empty"),
        Case(name: "empty query", arguments: ["search", " "], status: 2, message: "the query is empty"),
        Case(name: "no query", arguments: ["search"], status: 2, message: "the query is empty"),
        Case(name: "query with no words", arguments: ["search", "?!…"], status: 2, message: "has no words"),
        Case(
            name: "unknown strategy", arguments: ["search", "x", "--strategy", "grep"], status: 2,
            message: #"unknown strategy "grep""#),
        Case(name: "negative limit", arguments: ["search", "x", "--limit", "-1"], status: 2, message: "--limit"),
        Case(name: "negative offset", arguments: ["list", "--offset", "-3"], status: 2, message: "--offset"),
        Case(name: "non-numeric limit", arguments: ["search", "x", "--limit", "many"], status: 2, message: "many"),
        Case(
            name: "limit beyond any integer", arguments: ["search", "x", "--limit", "99999999999999999999"], status: 2,
            message: "99999999999999999999"),
        Case(
            name: "invalid regex", arguments: ["search", "--regex", "("], status: 2,
            message: "invalid regular expression"),
        Case(name: "unknown option to verify", arguments: ["verify", "--deep"], status: 2, message: "--deep"),
        Case(name: "argument to reindex", arguments: ["reindex", "extra"], status: 2, message: "extra"),
        Case(name: "unknown option", arguments: ["search", "x", "--fuzzy"], status: 2, message: "--fuzzy"),
        Case(name: "unknown command", arguments: ["grep", "x"], status: 2, message: "grep"),
        Case(name: "bad identifier", arguments: ["show", "first"], status: 2, message: "not an entry identifier"),
        Case(name: "missing entry", arguments: ["edit", "p999", "--text", "x"], status: 1, message: "no entry"),
        Case(
            name: "another journal's entry",
            arguments: ["delete", "x-journal://00000000-0000-0000-0000-000000000000/Entry/p1"], status: 1,
            message: "belongs to another journal"),
    ]

    @Test(arguments: cases)
    func refusesAndChangesNothing(_ bad: Case) throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let seed = try journal.file([#"{"date": "2024-01-01T00:00:00Z", "text": "seed entry % _ \\"}"#])
        #expect(try journal.run(["import", seed]).status == 0)
        let before = try journal.fingerprint()

        var arguments = bad.arguments
        if let lines = bad.lines { arguments.append(try journal.file(lines)) }
        if let raw = bad.rawInput { arguments.append(try journal.file(bytes: Data(raw))) }
        let outcome = try journal.run(arguments)
        #expect(outcome.status == bad.status, "\(outcome.error)")
        #expect(outcome.error.contains(bad.message), "\(outcome.error)")
        #expect(outcome.error.hasPrefix("journal: "))
        #expect(outcome.error.split(separator: "\n").count == 1, "one line: \(outcome.error)")
        #expect(try journal.fingerprint() == before)
    }

    @Test func refusesAStorePathThatIsAFileOrCannotBeWritten() throws {
        let journal = JournalProcess()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("journal-file-\(UUID().uuidString)")
        try Data("not a folder".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let onFile = try journal.run(["--store", file.path, "list"], useStore: false)
        #expect(onFile.status == 1)
        #expect(onFile.error == "journal: store path \(file.path) is a file, not a directory\n")
        #expect(try Data(contentsOf: file) == Data("not a folder".utf8))

        let unwritable = try journal.run(["--store", "/proc/journal-test/store", "add", "x"], useStore: false)
        #expect(unwritable.status == 1)
        #expect(unwritable.error.contains("/proc/journal-test/store"))
    }

    @Test func onlyAddAndImportCreateAJournal() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for arguments in [["search", "x"], ["list"], ["stats"], ["show", "1"], ["delete", "1"], ["search", "?!"]] {
            let outcome = try journal.run(arguments)
            #expect(outcome.status == (arguments == ["search", "?!"] ? 2 : 1), "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: journal.store.path), "\(arguments) created the journal")
        }
        #expect(
            try journal.run(["list"]).error
                == "journal: no journal in \(journal.store.path) (journal add or journal import creates one)\n")
        #expect(try journal.run(["add", "first"]).status == 0)
        #expect(try journal.run(["list"]).status == 0)
    }

    @Test func refusesACorruptMainStoreNamingIt() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        try FileManager.default.createDirectory(at: journal.store, withIntermediateDirectories: true)
        let main = journal.store.appendingPathComponent("journal.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: main)
        let outcome = try journal.run(["list"])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains(main.path))
        #expect(try Data(contentsOf: main) == garbage, "a corrupt store is left as it was")
    }
}

/// Inputs that are not errors but could break a careless implementation: metacharacters,
/// an enormous entry, a million-line import, a journal the user may not write.
@Suite struct HostileInputTests {
    static let substringStrategies = SearchStrategies.all.filter { $0.family == .substring }.map(\.name)
    static let wordStrategies = SearchStrategies.all.filter { $0.family == .wordPrefix }.map(\.name)
    /// Every character SQL `LIKE`, `GLOB` or a regular expression treats specially, alone and in
    /// combinations that would match anything if they were not literal.
    static let metacharacters = [
        "%", "_", "\\", "*", "?", "[", "]", "^", "$", ".", "+", "(", ")", "{", "}", "|", "\\E", "%_", ".*", "[a-z]",
        "\\Q", "'", "\"",
    ]

    @Test func metacharactersAreLiteralInEveryStrategy() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let texts = [
            #"meta %_\*?[]^$.+(){}|' end \E \Q "quoted""#, "plain entry without symbols", "100% sure", "a.b and x*y",
        ]
        for text in texts { #expect(try journal.run(["add", text]).status == 0) }
        for query in Self.metacharacters {
            let expected = texts.filter { Array($0.utf8).firstRange(of: Array(query.utf8)) != nil }.count
            for strategy in Self.substringStrategies {
                let outcome = try journal.run(["search", query, "--strategy", strategy, "--json"])
                #expect(outcome.status == 0, "\(strategy) \(query): \(outcome.error)")
                #expect(try outcome.json()["total"] as? Int == expected, "\(strategy) \(query)")
            }
            // Word strategies see only the letters: none is a usage error; \E and [a-z] have words.
            let hasWords = query.contains { $0.isLetter }
            var totals: [String: Int] = [:]
            for strategy in Self.wordStrategies {
                let outcome = try journal.run(["search", query, "--strategy", strategy, "--json"])
                #expect(outcome.status == (hasWords ? 0 : 2), "\(strategy) \(query): \(outcome.error)")
                if hasWords {
                    totals[strategy] = try outcome.json()["total"] as? Int
                } else {
                    #expect(outcome.error.contains("has no words"), "\(strategy) \(query): \(outcome.error)")
                }
            }
            #expect(totals[StrategyID.token.name] == totals[StrategyID.prefix.name], "\(query): \(totals)")
        }
        #expect(try journal.run(["verify"]).status == 0)
    }

    @Test func aTwentyMegabyteEntryIsKeptWholeAndALargerOneRefused() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let big = String(repeating: "lorem ipsum dolor ", count: 20 << 20 / 18) + "needle"
        let added = try journal.run(["add", "--json"], input: Data(big.utf8))
        #expect(added.status == 0, "\(added.error)")
        let id = try #require(try added.json()["id"] as? String)
        #expect(try journal.run(["show", id, "--json"]).json()["text"] as? String == big)
        #expect(try journal.run(["search", "needle", "--json"]).json()["total"] as? Int == 1)
        #expect(
            try journal.run(["search", "needle", "--strategy", StrategyID.containsN.name, "--json"]).json()["total"]
                as? Int == 1)
        let before = try journal.fingerprint()

        let tooBig = String(repeating: "x", count: (64 << 20) + 1)
        let refused = try journal.run(["add"], input: Data(tooBig.utf8))
        #expect(refused.status == 1)
        #expect(refused.error.contains("an entry may have at most"), "\(refused.error)")
        #expect(try journal.fingerprint() == before)
        #expect(try journal.run(["verify"]).status == 0)
    }

    @Test func aMillionLineImportWithABadLastLineImportsNothing() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "kept"]).status == 0)
        let before = try journal.fingerprint()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-million-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var data = Data()
        data.reserveCapacity(24_000_000)
        for index in 1...1_000_000 { data.append(contentsOf: Array(#"{"text":"line \#(index)"}"#.utf8) + [0x0A]) }
        data.append(contentsOf: Array(#"{"text":"#.utf8))
        try data.write(to: url)
        let outcome = try journal.run(["import", url.path])
        #expect(outcome.status == 1)
        #expect(outcome.error == "journal: line 1000001: malformed JSON\n", "\(outcome.error)")
        #expect(try journal.fingerprint() == before)
    }

    /// Runs as `nobody` when the tests run as root, whom file permissions do not stop.
    static var unprivileged: [String] {
        geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    }

    /// Every file of the store and its bytes, to show that nothing changed.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try JournalProcess.contents(of: folder.appendingPathComponent($0))) }
        )
    }

    /// Reads answer from what is stored; writes are refused with one line; no file changes.
    @Test func aJournalTheUserMayNotWriteAnswersReadsAndRefusesWrites() throws {
        let journal = JournalProcess()
        defer {
            _ = chmod(journal.store.path, 0o700)
            journal.removeStore()
        }
        let user = Self.unprivileged
        #expect(try journal.run(["add", "written before"], launcher: user).status == 0)
        #expect(chmod(journal.store.path, 0o500) == 0)
        let before = try Self.snapshot(journal.store)
        for arguments in [["add", "more"], ["import", "-"], ["reindex"]] {
            let outcome = try journal.run(arguments, input: Data(#"{"text": "x"}"#.utf8), launcher: user)
            #expect(outcome.status == 1, "\(arguments): \(outcome.error)")
            #expect(
                outcome.error == "journal: the journal in \(journal.store.path) cannot be written: Permission denied\n",
                "\(arguments)")
        }
        let found = try journal.run(["search", "written", "--json"], launcher: user)
        #expect(found.status == 0 && found.error.isEmpty, "\(found.error)")
        #expect(try found.json()["total"] as? Int == 1)
        let listed = try journal.run(["list", "--json"], launcher: user)
        #expect(try listed.json()["total"] as? Int == 1)
        #expect(try journal.run(["show", "p1"], launcher: user).output.contains("written before"))
        #expect(try journal.run(["stats", "--json"], launcher: user).json()["entries"] as? Int == 1)
        #expect(try Self.snapshot(journal.store) == before)

        // A folder the user may write, with store files they may only read.
        #expect(chmod(journal.store.path, 0o700) == 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: journal.store.path) {
            #expect(chmod(journal.store.appendingPathComponent(name).path, 0o400) == 0)
        }
        let readOnly = try Self.snapshot(journal.store)
        let add = try journal.run(["add", "more"], launcher: user)
        #expect(add.status == 1, "\(add.error)")
        #expect(add.error.contains(journal.store.path), "\(add.error)")
        #expect(add.error.split(separator: "\n").count == 1, "\(add.error)")
        #expect(
            try Self.snapshot(journal.store).filter { $0.key.hasSuffix(".sqlite") }
                == readOnly.filter { $0.key.hasSuffix(".sqlite") })
    }
}
