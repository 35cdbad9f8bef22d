import Foundation
import Testing

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
        Case(name: "malformed JSON line", arguments: ["import"], lines: [#"{"text": "fine"}"#, #"{"text": "broken"#], status: 1, message: "line 2: malformed JSON"),
        Case(name: "invalid UTF-8", arguments: ["import"], rawInput: Array(#"{"text": "ok"}"#.utf8) + [0x0A] + Array(#"{"text": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), status: 1, message: "line 2: invalid UTF-8"),
        Case(name: "missing text", arguments: ["import"], lines: [#"{"text": "fine"}"#, #"{"date": "2024-01-01"}"#], status: 1, message: #"line 2: missing "text""#),
        Case(name: "text not a string", arguments: ["import"], lines: [#"{"text": ["a"]}"#], status: 1, message: #"line 1: "text" must be a string"#),
        Case(name: "bad date in import", arguments: ["import"], lines: [#"{"text": "a"}"#, #"{"text": "b", "date": "2024-02-30T10:00:00Z"}"#], status: 1, message: "line 2: bad date"),
        Case(name: "raw NUL byte", arguments: ["import"], rawInput: Array(#"{"text": "a"#.utf8) + [0x00] + Array(#"b"}"#.utf8), status: 1, message: "line 1: malformed JSON"),
        Case(name: "missing import file", arguments: ["import", "/nonexistent/entries.jsonl"], status: 1, message: "cannot read /nonexistent/entries.jsonl"),
        Case(name: "bad --date", arguments: ["add", "--date", "tomorrow", "text"], status: 2, message: "tomorrow"),
        Case(name: "empty entry", arguments: ["add", " "], status: 1, message: "the text is empty"),
        Case(name: "empty query", arguments: ["search", " "], status: 2, message: "the query is empty"),
        Case(name: "no query", arguments: ["search"], status: 2, message: "the query is empty"),
        Case(name: "query with no words", arguments: ["search", "?!…"], status: 2, message: "has no words"),
        Case(name: "unknown strategy", arguments: ["search", "x", "--strategy", "grep"], status: 2, message: #"unknown strategy "grep""#),
        Case(name: "negative limit", arguments: ["search", "x", "--limit", "-1"], status: 2, message: "--limit"),
        Case(name: "negative offset", arguments: ["list", "--offset", "-3"], status: 2, message: "--offset"),
        Case(name: "non-numeric limit", arguments: ["search", "x", "--limit", "many"], status: 2, message: "many"),
        Case(name: "limit beyond any integer", arguments: ["search", "x", "--limit", "99999999999999999999"], status: 2, message: "99999999999999999999"),
        Case(name: "invalid regex", arguments: ["search", "--regex", "("], status: 2, message: "invalid regular expression"),
        Case(name: "unknown option to verify", arguments: ["verify", "--deep"], status: 2, message: "--deep"),
        Case(name: "argument to reindex", arguments: ["reindex", "extra"], status: 2, message: "extra"),
        Case(name: "unknown option", arguments: ["search", "x", "--fuzzy"], status: 2, message: "--fuzzy"),
        Case(name: "unknown command", arguments: ["grep", "x"], status: 2, message: "grep"),
        Case(name: "bad identifier", arguments: ["show", "first"], status: 2, message: "not an entry identifier"),
        Case(name: "missing entry", arguments: ["edit", "p999", "--text", "x"], status: 1, message: "no entry"),
        Case(name: "another journal's entry", arguments: ["delete", "x-journal://00000000-0000-0000-0000-000000000000/Entry/p1"], status: 1, message: "belongs to another journal"),
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
        if let raw = bad.rawInput {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("journal-raw-\(UUID().uuidString).jsonl")
            try Data(raw).write(to: url)
            arguments.append(url.path)
        }
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
        #expect(try journal.run(["list"]).error == "journal: no journal in \(journal.store.path) (journal add or journal import creates one)\n")
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
