import Foundation
import JournalKit
import Testing

/// The configuration file as a new user meets it: named journals, the default one, the editor,
/// the default strategy and colour; a bad file is one line naming file and line, exit 2, and
/// nothing written.
@Suite struct ConfigurationTests {
    /// A home folder with `config` as `~/.config/journal/config.toml` (none when nil).
    private struct Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("journal-home-\(UUID().uuidString)")
        var configuration: URL { url.appendingPathComponent(".config/journal/config.toml") }
        /// HOME set, XDG_CONFIG_HOME and XDG_DATA_HOME unset, as on a fresh account.
        var environment: [String: String] { ["HOME": url.path, "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": ""] }

        init(_ config: String?) throws {
            try FileManager.default.createDirectory(
                at: configuration.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let config { try Data(config.utf8).write(to: configuration) }
        }

        func run(
            _ arguments: [String], _ extra: [String: String] = [:], input: Data = Data()
        ) throws -> JournalProcess.Outcome {
            try JournalProcess(store: url).run(
                arguments, input: input, environment: environment.merging(extra) { $1 }, useStore: false)
        }

        func texts(in folder: String) throws -> [String] {
            let listed = try run(["--store", folder, "list", "--json"])
            return (try listed.json()["results"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static let config = """
        # journals by name
        default = "personal"
        strategy = "\(SearchStrategies[.containsN].alias)"

        [journals]
        personal = "~/Journals/personal"
        work = "work"
        "side project" = "/tmp/NEVER-USED"
        """

    @Test func namedJournalsAreChosenByOptionEnvironmentAndDefault() throws {
        let home = try Home(Self.config)
        defer { home.remove() }
        let personal = home.url.appendingPathComponent("Journals/personal").path
        let work = home.configuration.deletingLastPathComponent().appendingPathComponent("work").path
        #expect(try home.run(["add", "personal, by default"]).status == 0)
        #expect(try home.run(["-j", "work", "add", "work, by -j"]).status == 0)
        #expect(try home.run(["add", "work, by JOURNAL"], ["JOURNAL": "work"]).status == 0)
        #expect(
            try home.run(["--journal", "personal", "add", "personal, by --journal"], ["JOURNAL": "work"]).status == 0,
            "-j beats JOURNAL")
        let elsewhere = home.url.appendingPathComponent("elsewhere").path
        #expect(try home.run(["--store", elsewhere, "-j", "work", "add", "elsewhere, --store wins"]).status == 0)
        #expect(
            try home.run(["add", "elsewhere, by JOURNAL_STORE"], ["JOURNAL_STORE": elsewhere, "JOURNAL": "work"]).status
                == 0)
        #expect(try home.texts(in: personal) == ["personal, by --journal", "personal, by default"])
        #expect(try home.texts(in: work) == ["work, by JOURNAL", "work, by -j"])
        #expect(try home.texts(in: elsewhere) == ["elsewhere, by JOURNAL_STORE", "elsewhere, --store wins"])

        // The configured strategy is search's default; --strategy still wins.
        let search = try home.run(["search", "by", "--json"]).json()
        #expect(search["strategy"] as? String == StrategyID.containsN.name)
        #expect(
            try home.run(["search", "by", "--strategy", StrategyID.prefix.name, "--json"]).json()["strategy"] as? String
                == StrategyID.prefix.name)

        // journal journals: every named journal, the one in use marked, entries and sizes.
        let listed = try home.run(["journals", "--json"]).json()
        #expect(listed["config"] as? String == home.configuration.path)
        let journals = try #require(listed["journals"] as? [[String: Any]])
        #expect(journals.map { $0["name"] as? String } == ["personal", "side project", "work"])
        #expect(journals.map { $0["in_use"] as? Bool } == [true, false, false])
        #expect(journals.map { $0["entries"] as? Int } == [2, nil, 2])
        #expect(journals.map { $0["note"] as? String } == [nil, "no journal yet", nil])
        #expect((journals[0]["bytes"] as? Int ?? 0) > 0)
        let text = try home.run(["-j", "work", "journals"]).output
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("*") && $0.contains("work") && $0.contains(work) })

        // A name the file doesn't have is a usage error naming the known ones.
        let unknown = try home.run(["-j", "holiday", "list"])
        #expect(unknown.status == 2)
        #expect(
            unknown.error
                == "journal: no journal named \"holiday\" in \(home.configuration.path) (it names personal, side project, work)\n"
        )
        #expect(try home.run(["list"], ["JOURNAL": "holiday"]).status == 2)
    }

    @Test func noConfigurationFileChangesNothing() throws {
        let home = try Home(nil)
        defer { home.remove() }
        #expect(try home.run(["add", "in the default place"]).status == 0)
        #expect(
            try home.texts(in: home.url.appendingPathComponent(".local/share/journal").path) == ["in the default place"]
        )
        let named = try home.run(["-j", "work", "list"])
        #expect(named.status == 2 && named.error.contains("name it in \(home.configuration.path)"), "\(named.error)")
        let listed = try home.run(["journals"]).output
        #expect(listed.contains("no configuration file (\(home.configuration.path))"))
        #expect(
            try home.run(["search", "place", "--json"]).json()["strategy"] as? String == SearchStrategies.standard.name)
    }

    /// Each bad file: the line and what is wrong, worked out by hand; exit 2; nothing written.
    @Test(arguments: [
        ("default = \"personal\"\n[journals]\npersonal = 3\n", 3, "journal \"personal\" needs a folder as a string"),
        ("colors = \"never\"\n", 1, "unknown setting \"colors\""),
        (
            "editor = \"vi\"\ndefault = \"x\"\n[journals]\nwork = \"w\"\n", 2,
            "the default journal \"x\" is not under [journals]"
        ),
        ("\n\nstrategy = \"fastest\"\n", 3, "strategy \"fastest\" is not one of journal's"),
        ("color = \"sometimes\"\n", 1, "color must be auto, always or never"),
        ("[journals\nwork = \"w\"\n", 1, "error while parsing table header"),
        ("editor = 1\n", 1, "editor must be a non-empty string"),
        ("journals = \"w\"\n", 1, "journals must be a table"),
        ("# fine\nx = = 1\n", 2, "error while parsing"),
        ("\u{FEFF}[journals]\nwork = \"w\"\nwork = \"v\"\n", 3, "cannot redefine existing string 'work'"),
    ])
    func aBadFileIsOneLineAndWritesNothing(_ config: String, _ line: Int, _ what: String) throws {
        let home = try Home(config)
        defer { home.remove() }
        let store = home.url.appendingPathComponent("store").path
        for arguments in [["add", "not written"], ["--store", store, "add", "not written"], ["journals"], ["list"]] {
            let refused = try home.run(arguments)
            #expect(refused.status == 2, "\(arguments)")
            #expect(refused.error.hasPrefix("journal: \(home.configuration.path):\(line): "), "\(refused.error)")
            #expect(refused.error.contains(what), "\(refused.error)")
            #expect(refused.error.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(!FileManager.default.fileExists(atPath: home.url.appendingPathComponent(".local/share/journal").path))
    }

    @Test func theEditorAndColourComeFromTheFile() throws {
        let home = try Home("editor = \"sed -i s/^/edited:/\"\ncolor = \"always\"\n")
        defer { home.remove() }
        let store = home.url.appendingPathComponent("store").path
        #expect(try home.run(["--store", store, "add", "plain"], ["EDITOR": "false", "VISUAL": "false"]).status == 0)
        #expect(
            try home.run(["--store", store, "edit", "p1"], ["EDITOR": "false", "VISUAL": "false"]).status == 0,
            "the file's editor first")
        #expect(try home.texts(in: store) == ["edited:plain"])
        #expect(
            try home.run(["--store", store, "list"], ["NO_COLOR": "1"]).output.contains("\u{1B}["),
            "always: even to a file, even with NO_COLOR")
        try Data("colour = \"never\"\n".utf8).write(to: home.configuration)
        #expect(!(try home.run(["--store", store, "list"]).output.contains("\u{1B}[")))
    }
}
