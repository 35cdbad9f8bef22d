import Foundation
import Testing

/// `journal` and jrnl itself (4.6, which `scripts/test` installs with pip) on the same files:
/// jrnl opens `journal export --format txt` as its journal, and `journal import` reads back
/// what jrnl wrote, its journal file and its JSON export.
@Suite struct JrnlInteropTests {
    /// Runs `python3 -m jrnl ARGUMENTS…` with its configuration in `home`, on `journalFile`.
    private func jrnl(_ arguments: [String], home: URL, journalFile: URL) throws -> (status: Int32, output: String) {
        let configuration = home.appendingPathComponent(".config/jrnl/jrnl.yaml")
        try FileManager.default.createDirectory(at: configuration.deletingLastPathComponent(), withIntermediateDirectories: true)
        try """
        colors: {body: none, date: none, tags: none, title: none}
        default_hour: 9
        default_minute: 0
        editor: ''
        encrypt: false
        highlight: false
        indent_character: '|'
        journals:
          default: {journal: \(journalFile.path)}
        linewrap: 79
        tagsymbols: '#@'
        template: false
        timeformat: '%F %r'
        version: v4.6
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "jrnl"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": home.path, "TZ": "Europe/Paris", "NO_COLOR": "1"]) { $1 }
        let output = home.appendingPathComponent("jrnl-output")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, String(decoding: try JournalProcess.contents(of: output), as: UTF8.self))
    }

    @Test func jrnlOpensTheTextExportAndImportReadsWhatJrnlWrote() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("jrnl-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let paris = ["TZ": "Europe/Paris"]
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for arguments in [
            ["add", "--date", "2024-07-01 21:15", "--star", "Crème brûlée, second try #dessert\n\nBetter than the first."],
            ["add", "--date", "2024-07-02 08:00:30", "東京タワーに行きました。 @travel"],
            ["add", "--date", "2024-07-03 12:00", "Lunch with Ana, then a long walk by the river."],
        ] {
            #expect(try journal.run(arguments, environment: paris).status == 0)
        }
        let file = home.appendingPathComponent("journal.txt")
        #expect(try journal.run(["export", "--format", "txt", "-o", file.path], environment: paris).status == 0)

        // jrnl reads the file as its journal: every entry, its date and time, title, star and tags.
        let exported = try jrnl(["--export", "json"], home: home, journalFile: file)
        #expect(exported.status == 0, "is jrnl installed? scripts/test installs it with pip")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(
            entries.map { $0["title"] as? String } == [
                "Crème brûlée, second try #dessert", "東京タワーに行きました。 @travel", "Lunch with Ana, then a long walk by the river.",
            ])
        #expect(entries.map { $0["body"] as? String } == ["Better than the first.", "", ""])
        #expect(
            entries.map { "\($0["date"] as? String ?? "") \($0["time"] as? String ?? "")" } == [
                "2024-07-01 21:15", "2024-07-02 08:00", "2024-07-03 12:00",
            ])
        #expect(entries.map { $0["starred"] as? Bool } == [true, false, false])
        #expect(document["tags"] as? [String: Int] == ["#dessert": 1, "@travel": 1])

        // jrnl's JSON export, imported into an empty journal, gives the same entries.
        let copy = JournalProcess()
        defer { copy.removeStore() }
        let imported = try copy.run(["import", "-", "--json"], input: Data(exported.output.utf8), environment: paris).json()
        #expect(imported["imported"] as? Int == 3)
        let original = try #require(try journal.run(["list", "--json"]).json()["results"] as? [[String: Any]])
        let fromJrnl = try #require(try copy.run(["list", "--json"]).json()["results"] as? [[String: Any]])
        #expect(
            fromJrnl.map { $0["text"] as? String } == [
                "Lunch with Ana, then a long walk by the river.", "東京タワーに行きました。 @travel",
                "Crème brûlée, second try #dessert\nBetter than the first.",
            ])
        #expect(fromJrnl.map { $0["starred"] as? Bool } == original.map { $0["starred"] as? Bool })
        #expect(fromJrnl.map { $0["tags"] as? [String] } == original.map { $0["tags"] as? [String] })

        // An entry jrnl adds to the file is the one entry a second import of the file adds.
        #expect(try jrnl(["2024-07-04 09:00: Went out. Had fun. @friends"], home: home, journalFile: file).status == 0)
        let again = try journal.run(["import", file.path, "--json"], environment: paris).json()
        #expect(again["imported"] as? Int == 1 && again["already_present"] as? Int == 3)
        let added = try #require(try journal.run(["list", "--limit", "1", "--json"]).json()["results"] as? [[String: Any]])
        #expect(added.first?["text"] as? String == "Went out.\nHad fun. @friends")
        #expect(added.first?["date"] as? String == "2024-07-04T07:00:00Z")
        #expect(added.first?["tags"] as? [String] == ["friends"])
    }
}
