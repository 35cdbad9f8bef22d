import Foundation
import JournalBench
import Testing

/// `journal` and jrnl itself (4.6, which `scripts/test` installs with pip) on the same files:
/// jrnl opens `journal export --format txt` as its journal, and `journal import` reads back
/// what jrnl wrote, its journal file and its JSON export.
@Suite struct JrnlInteropTests {
    /// Runs `python3 -m jrnl ARGUMENTS…` with its configuration in `home`, on `journalFile`.
    private func jrnl(_ arguments: [String], home: URL, journalFile: URL) throws -> (status: Int32, output: String) {
        let configuration = home.appendingPathComponent(".config/jrnl/jrnl.yaml")
        try FileManager.default.createDirectory(
            at: configuration.deletingLastPathComponent(), withIntermediateDirectories: true)
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
        process.environment = ProcessInfo.processInfo.environment.merging([
            "HOME": home.path, "TZ": "Europe/Paris", "NO_COLOR": "1",
        ]) { $1 }
        let output = home.appendingPathComponent("jrnl-output")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, String(decoding: try JournalProcess.contents(of: output), as: UTF8.self))
    }

    /// The tags of each entry and their counts, as `journal export --format json` names them and
    /// as jrnl's own JSON export does, jrnl reading `journal export --format txt` as its journal.
    private func exportedTags(
        of journal: JournalProcess, home: URL, environment: [String: String]
    ) throws -> (
        ours: (entries: [Set<String>], counts: [String: Int]), jrnl: (entries: [Set<String>], counts: [String: Int])
    ) {
        let file = home.appendingPathComponent("journal.txt")
        #expect(try journal.run(["export", "--format", "txt", "-o", file.path], environment: environment).status == 0)
        let theirs = try jrnl(["--export", "json"], home: home, journalFile: file)
        #expect(theirs.status == 0, "is jrnl installed? scripts/test installs it with pip")
        let ours = try journal.run(["export", "--format", "json"], environment: environment)
        #expect(ours.status == 0)
        func tags(_ json: String) throws -> (entries: [Set<String>], counts: [String: Int]) {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let entries = try #require(document["entries"] as? [[String: Any]])
            return (
                entries.map { Set($0["tags"] as? [String] ?? []) }, try #require(document["tags"] as? [String: Int])
            )
        }
        return (try tags(ours.output), try tags(theirs.output))
    }

    /// A new home folder for jrnl's configuration and files.
    private static func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("jrnl-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    @Test func jrnlOpensTheTextExportAndImportReadsWhatJrnlWrote() throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let paris = ["TZ": "Europe/Paris"]
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for arguments in [
            [
                "add", "--date", "2024-07-01 21:15", "--star",
                "Crème brûlée, second try #dessert\n\nBetter than the first.",
            ],
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
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(
            entries.map { $0["title"] as? String } == [
                "Crème brûlée, second try #dessert", "東京タワーに行きました。 @travel",
                "Lunch with Ana, then a long walk by the river.",
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
        let imported = try copy.run(["import", "-", "--json"], input: Data(exported.output.utf8), environment: paris)
            .json()
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
        let added = try #require(
            try journal.run(["list", "--limit", "1", "--json"]).json()["results"] as? [[String: Any]])
        #expect(added.first?["text"] as? String == "Went out.\nHad fun. @friends")
        #expect(added.first?["date"] as? String == "2024-07-04T07:00:00Z")
        #expect(added.first?["tags"] as? [String] == ["friends"])
    }

    /// Accented and mixed-case tags: `journal export --format json` names each entry's tags, and
    /// counts them, as jrnl's own JSON export of the same entries does (jrnl reading the text
    /// export as its journal); `journal` itself shows each tag as written.
    @Test func theJSONExportNamesAccentedTagsAsJrnlDoes() throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let paris = ["TZ": "Europe/Paris"]
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let texts = [
            "Un #Café avec @Zoë, puis #Crème-Brûlée.", "Encore le #café. #ÉLAN retrouvé", "#Straße und #Übung, @Zoë",
            "Phở ở #HàNội với #Bạn-Bè", "Ein #Café-Besuch #c++ #Tag- #ΟΔΟΣ",
            "No tags, only me@example.com and # heading",
        ]
        for (day, text) in texts.enumerated() {
            #expect(
                try journal.run(["add", "--date", "2024-03-0\(day + 1) 10:00", text], environment: paris).status == 0)
        }
        let ((ourEntries, ourCounts), (jrnlEntries, jrnlCounts)) = try exportedTags(
            of: journal, home: home, environment: paris)
        #expect(ourEntries == jrnlEntries)
        #expect(ourCounts == jrnlCounts)
        #expect(jrnlEntries[0] == ["#café", "@zoë", "#crème-brûlée"], "worked by hand from jrnl's rule")
        #expect(
            jrnlEntries[4] == ["#café-besuch", "#c++", "#tag-", "#οδος"],
            "jrnl keeps + and a trailing -, and ends Σ as ς")

        // journal shows each tag in its most used form, ties to the earliest entry's.
        let listed = try journal.run(["tags", "--json"]).jsonArray()
        #expect(
            listed.map { $0["tag"] as? String ?? "" } == [
                "Café", "Zoë", "Bạn-Bè", "c", "Café-Besuch", "Crème-Brûlée", "ÉLAN", "HàNội", "Straße", "Tag", "Übung",
                "ΟΔΟΣ",
            ])
    }

    /// The same on 1,000 entries made from awkward tags (accents, case, Greek, Turkish dotted I,
    /// decomposed marks, `+`, a trailing `-`, Japanese), each in a few spellings and followed by
    /// punctuation: not one entry's tags, nor one count, differ from jrnl's.
    @Test func aThousandEntriesOfAwkwardTagsNameTheirTagsAsJrnlDoes() throws {
        let home = try Self.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let awkward = [
            "#Café", "#café", "#CAFÉ", "@Zoë", "#Crème-Brûlée", "#ÉLAN", "#Straße", "#Übung", "#HàNội", "#Bạn-Bè",
            "#東京", "#İstanbul",
            "#ΟΔΟΣ", "#Ñandú", "#naïve", "@José", "#c++", "#tag-", "#Cafe\u{301}", "#a/B/c", "#Year2024", "#日記",
        ]
        let words = ["le", "matin", "café", "thé", "rue", "Straße", "über", "ça", "très", "où"]
        var random = SplitMix64(seed: 23)
        var lines = ""
        for index in 0..<1_000 {
            var parts = (0..<(3 + index % 8)).map { _ in words.randomElement(using: &random)! }
            for _ in 0..<(index % 4) {
                let tag = awkward.randomElement(using: &random)! + ["", ",", ".", "!"].randomElement(using: &random)!
                parts.insert(tag, at: Int.random(in: 0...parts.count, using: &random))
            }
            let day = String(
                format: "20%02d-%02d-%02dT%02d:00:00Z", 10 + index % 14, 1 + index % 12, 1 + index % 28, index % 24)
            let object = try JSONSerialization.data(withJSONObject: ["text": parts.joined(separator: " "), "date": day])
            lines += String(decoding: object, as: UTF8.self) + "\n"
        }
        let paris = ["TZ": "Europe/Paris"]
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", "-"], input: Data(lines.utf8), environment: paris).status == 0)
        let ((ourEntries, ourCounts), (jrnlEntries, jrnlCounts)) = try exportedTags(
            of: journal, home: home, environment: paris)
        #expect(jrnlEntries.count == 1_000 && ourEntries.count == 1_000)
        #expect(zip(ourEntries, jrnlEntries).filter { $0 != $1 }.count == 0)
        #expect(ourCounts == jrnlCounts)
        #expect(jrnlCounts.count > 15, "the tags are many, and in several spellings")
    }

    /// Runs a Python program with jrnl 4.6's own modules; its standard output.
    private func python(_ program: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// jrnl's encrypted journals, version 3 (what jrnl 4.6 writes, by its own encryption class)
    /// and version 2 (what jrnl 2 wrote: a Fernet token under its fixed salt, which jrnl 4.6's
    /// own class reads back here), imported with their password.
    @Test func importReadsJrnlsEncryptedJournals() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jrnl-encrypted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("journal.txt")
        try """
        [2024-07-01 09:15:00 PM] Crème brûlée, second try #dessert *
        Better than the first.

        [2024-07-02 08:00:30 AM] 東京タワーに行きました。 @travel

        """.write(to: plain, atomically: true, encoding: .utf8)
        let version3 = folder.appendingPathComponent("v3.txt")
        let version2 = folder.appendingPathComponent("v2.txt")
        let written = try python(
            """
            import base64, sys
            from cryptography.fernet import Fernet
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
            from jrnl.encryption.Jrnlv3Encryption import Jrnlv3Encryption
            from jrnl.encryption.Jrnlv2Encryption import Jrnlv2Encryption
            text = open(sys.argv[1], encoding="utf-8").read()
            v3 = Jrnlv3Encryption("default", {})
            v3.password = "correct horse"
            open(sys.argv[2], "wb").write(v3.encrypt(text))
            salt = b"\\xf2\\xd5q\\x0e\\xc1\\x8d.\\xde\\xdc\\x8e6t\\x89\\x04\\xce\\xf8"
            kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=100_000)
            token = Fernet(base64.urlsafe_b64encode(kdf.derive(b"correct horse"))).encrypt(text.encode("utf-8"))
            open(sys.argv[3], "wb").write(token)
            v2 = Jrnlv2Encryption("default", {})
            v2.password = "correct horse"
            print(v2.decrypt(token) == text and v3.decrypt(open(sys.argv[2], "rb").read()) == text)
            """, arguments: [plain.path, version3.path, version2.path])
        #expect(
            written.status == 0 && written.output == "True\n", "is jrnl installed? scripts/test installs it with pip")
        let password = folder.appendingPathComponent("password")
        try Data("correct horse\n".utf8).write(to: password)
        let wrong = folder.appendingPathComponent("wrong")
        try Data("incorrect horse\n".utf8).write(to: wrong)
        for file in [version3, version2] {
            let journal = JournalProcess()
            defer { journal.removeStore() }
            let refused = try journal.run(
                ["import", file.path], environment: ["JOURNAL_IMPORT_PASSWORD_FILE": wrong.path])
            #expect(refused.status == 1)
            #expect(refused.error == "journal: wrong password for the jrnl journal \(file.path)\n")
            let imported = try journal.run(
                ["import", file.path, "--json"],
                environment: ["JOURNAL_IMPORT_PASSWORD_FILE": password.path, "TZ": "Europe/Paris"])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(try imported.json()["imported"] as? Int == 2)
            let listed = try #require(try journal.run(["list", "--json"]).json()["results"] as? [[String: Any]])
            #expect(
                listed.map { $0["text"] as? String } == [
                    "東京タワーに行きました。 @travel", "Crème brûlée, second try #dessert\nBetter than the first.",
                ])
            #expect(listed.map { $0["starred"] as? Bool } == [false, true])
        }
    }
}
