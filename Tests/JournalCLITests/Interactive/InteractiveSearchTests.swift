import Foundation
import GRDB
import JournalKit
import Testing

/// The full-screen search, driven in a real terminal (tmux) as a user drives it; what it shows
/// is checked against what `journal search --json` answers for the same query.
@Suite(.serialized) struct InteractiveSearchTests {
    /// A journal of the sample corpus, and the full-screen search opened on it.
    private struct Fixture {
        let journal: JournalProcess
        let terminal: TmuxSession

        init(
            arguments: [String] = [], environment: [String: String] = [:], columns: Int = 100, rows: Int = 20,
            encrypted: Bool = false,
            prepare: (JournalProcess) throws -> Void = { _ in }
        ) throws {
            journal = encrypted ? try JournalProcess.encrypted() : JournalProcess()
            try #require(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
            try prepare(journal)
            terminal = try TmuxSession(
                [JournalProcess.executable.path, "--store", journal.store.path, "search"] + arguments,
                environment: journal.environment.merging(environment) { $1 }, columns: columns, rows: rows)
        }

        /// The total `journal search` answers for `query`.
        func total(_ query: String, _ arguments: [String] = []) throws -> Int {
            try journal.run(["search", query, "--json"] + arguments).json()["total"] as! Int
        }

        /// The short names of the newest entries `journal search` answers for `query`.
        func newest(_ query: String, _ arguments: [String] = []) throws -> [String] {
            let results =
                try journal.run(["search", query, "--json", "--limit", "5"] + arguments).json()["results"]
                as! [[String: Any]]
            return results.map { ($0["id"] as! String).components(separatedBy: "/").last! }
        }

        /// Waits for the status line to report `total` entries (and nothing under way).
        @discardableResult
        func waitForTotal(
            _ total: Int, strategy: String = StrategyID.prefix.name, seconds: Double = 15,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> [String] {
            let entries = total == 0 ? "no entries" : "of \(total.formatted(.number.grouping(.automatic))) entr"
            return try terminal.waitFor(
                "\(entries) · \(strategy)", seconds: seconds, sourceLocation: sourceLocation
            ) { lines in
                lines.count > 1 && lines[1].contains(entries) && lines[1].contains(" · \(strategy) · ")
                    && !lines[1].contains("searching")
            }
        }

        func remove() { journal.removeStore() }

        /// The short names of the first five entries a screen's `lines` list.
        static func listed(_ lines: [String]) -> [String] {
            Array(
                lines.dropFirst(2).compactMap { $0.dropFirst(2).split(separator: " ").first.map(String.init) }.prefix(5)
            )
        }
    }

    @Test(arguments: [false, true]) func typingUpdatesTheTotalAndTheListAndBackspaceTakesItBack(encrypted: Bool) throws
    {
        let fixture = try Fixture(encrypted: encrypted)
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(300)
        var typed = ""
        for character in "bru cre" {
            try terminal.type(String(character))
            typed.append(character)
            guard !typed.hasSuffix(" ") else { continue }
            let lines = try fixture.waitForTotal(try fixture.total(typed))
            #expect(lines[0] == "> \(typed)")
            #expect(Fixture.listed(lines) == (try fixture.newest(typed)), "the list for \(typed)")
        }
        try terminal.press("BSpace", "BSpace", "BSpace")
        try fixture.waitForTotal(try fixture.total("bru"))
        try terminal.press("C-u")
        try fixture.waitForTotal(300)
        try terminal.press("Escape")
        let ended = try terminal.waitForExit()
        #expect(ended.status == 0)
        #expect(ended.restored)
    }

    @Test func anImportInAnotherProcessIsShownOnceIndexedAndSaidUntilThen() throws {
        let fixture = try Fixture(arguments: ["--interactive", "importb"])
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(0)
        // The screen says the import is being indexed, then shows it all, with no key pressed.
        // The search store's write lock, held here as another process's catch-up would hold it,
        // keeps the import's indexing waiting (a writer waits up to the busy timeout) until the
        // screen has been seen saying so: indexing alone is over before a screen that looks
        // once a second can tell.
        let count = 15_000
        let file = try fixture.journal.file(
            (1...count).map { #"{"date": "2024-05-01T08:30:00Z", "text": "importb entry \#($0)"}"# })
        defer { try? FileManager.default.removeItem(atPath: file) }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let catchUp = try DatabaseQueue(
            path: fixture.journal.store.appendingPathComponent("search.sqlite").path, configuration: configuration)
        try catchUp.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        // The import gives way to other work (nice 10): on a machine busy with other tests it
        // may take a while.
        let importer = try fixture.journal.start(["import", file])
        let said = try terminal.waitFor("indexing", seconds: 50) { lines in
            lines.count > 1 && lines[1].contains("indexing")
        }
        try catchUp.inDatabase { try $0.execute(sql: "ROLLBACK") }
        #expect(said[1].contains("no entries"), "\(said[1])")
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        let done = try fixture.waitForTotal(count, seconds: 30)
        #expect(!done[1].contains("indexing"))
        // A single add in another process is shown too.
        #expect(try fixture.journal.run(["add", "importb once more"]).status == 0)
        try fixture.waitForTotal(count + 1)
        // Ended as a user ends it: tmux's kill-server leaves a program in raw mode running.
        try terminal.press("Escape")
        #expect(try terminal.waitForExit().status == 0)
    }

    @Test func movingOpeningAnEntryAndGoingBack() throws {
        let fixture = try Fixture(rows: 12)
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try terminal.type("the")
        try fixture.waitForTotal(try fixture.total("the"))
        let newest = try fixture.newest("the")
        try terminal.press("Down", "C-n", "C-j", "Up")
        try terminal.waitFor("the selection on the third entry") { $0.contains { $0.hasPrefix("▌ \(newest[2]) ") } }
        try terminal.press("Enter")
        let entry = try terminal.waitFor("the entry in full") { $0.first?.hasPrefix("\(newest[2])  ") == true }
        #expect(entry.contains { $0.contains("x-journal://") })
        #expect(entry.last { !$0.isEmpty }?.contains("Esc back") == true)
        try terminal.press("Escape")
        try terminal.waitFor("the list again") {
            $0.first == "> the" && $0.contains { $0.hasPrefix("▌ \(newest[2]) ") }
        }
        try terminal.press("PageDown")
        try terminal.waitFor("a page further") { lines in
            !lines.contains { $0.hasPrefix("▌ \(newest[2]) ") } && lines.contains { $0.hasPrefix("▌ ") }
        }
        try terminal.press("C-c")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func anEditInTheEditorIsSavedAndSearchedOnReturn() throws {
        let editor = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-editor-\(UUID().uuidString).sh")
        try "#!/bin/sh\nprintf ' zanzibar' >> \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        defer { try? FileManager.default.removeItem(at: editor) }
        let fixture = try Fixture(environment: ["VISUAL": editor.path])
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try terminal.type("bru cre")
        try fixture.waitForTotal(try fixture.total("bru cre"))
        let edited = try fixture.newest("bru cre")[0]
        try terminal.press("C-e")
        try terminal.waitFor("edited \(edited)")
        #expect(try fixture.journal.run(["show", edited]).output.contains("zanzibar"))
        try terminal.press("C-u")
        try terminal.type("zanz")
        let lines = try fixture.waitForTotal(1)
        #expect(lines[2].hasPrefix("▌ \(edited) "))
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    /// Star, tags and delete on the selected entry, each saved at once (another process sees
    /// it while the search is still open), the status line saying what was done.
    @Test func actionsOnTheSelectedEntryAreSavedAtOnce() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try terminal.type("bru cre")
        try fixture.waitForTotal(try fixture.total("bru cre"))
        let found = try fixture.newest("bru cre")
        let first = found[0]
        func shown(_ id: String) throws -> [String: Any] { try fixture.journal.run(["show", id, "--json"]).json() }
        let starredBefore = try shown(first)["starred"] as? Bool ?? false

        // Ctrl-S stars (or unstars) at once.
        try terminal.press("C-s")
        try terminal.waitFor("\(starredBefore ? "unstarred" : "starred") \(first)")
        #expect(try shown(first)["starred"] as? Bool == !starredBefore)

        // Ctrl-T asks for tags: a name adds, -name removes; Esc changes nothing.
        try terminal.press("C-t")
        try terminal.waitFor("tags for \(first)")
        try terminal.type("Voyage #Été")
        try terminal.press("Enter")
        try terminal.waitFor("\(first): ")
        #expect(Set(try shown(first)["tags"] as? [String] ?? []).isSuperset(of: ["Voyage", "Été"]))
        try terminal.press("C-t")
        try terminal.type("-voyage")
        try terminal.press("Enter")
        try terminal.waitFor("\(first): ")
        let tags = try shown(first)["tags"] as? [String] ?? []
        #expect(tags.contains("Été") && !tags.contains("Voyage"))
        let before = try fixture.journal.fingerprint()
        try terminal.press("C-t")
        try terminal.type("ignored")
        try terminal.press("Escape")
        try terminal.waitFor("tags of \(first) unchanged")
        #expect(try fixture.journal.fingerprint() == before)

        // Ctrl-X asks; any answer but y keeps the entry, y deletes it and the list refreshes.
        try terminal.press("C-x")
        try terminal.waitFor("delete \(first)?")
        try terminal.type("n")
        try terminal.waitFor("\(first) kept")
        #expect(try fixture.journal.fingerprint() == before)
        try terminal.press("C-x")
        try terminal.type("y")
        try terminal.waitFor("deleted \(first)")
        let lines = try fixture.waitForTotal(found.count > 1 ? try fixture.total("bru cre") : 0)
        #expect(!lines.contains { $0.contains(" \(first) ") })
        #expect(try fixture.journal.run(["show", first]).status == 1, "gone for every process")

        // In an entry shown in full, s stars and d deletes (then back to the list).
        if found.count > 1 {
            try terminal.press("Enter")
            try terminal.waitFor("the entry in full") { $0.first?.hasPrefix("\(found[1])  ") == true }
            let wasStarred = try shown(found[1])["starred"] as? Bool ?? false
            try terminal.type("s")
            try terminal.waitFor("\(wasStarred ? "unstarred" : "starred") \(found[1])")
            #expect(try shown(found[1])["starred"] as? Bool == !wasStarred)
            try terminal.type("d")
            try terminal.type("y")
            try terminal.waitFor("deleted \(found[1])")
            try terminal.waitFor("the list again") { $0.first == "> bru cre" }
        }
        #expect(try fixture.journal.run(["verify"]).status == 0)
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func aFailingEditorChangesNothingAndTheSearchGoesOn() throws {
        let fixture = try Fixture(environment: ["VISUAL": "false"])
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try terminal.type("bru")
        try fixture.waitForTotal(try fixture.total("bru"))
        let before = try fixture.journal.fingerprint()
        try terminal.press("C-e")
        try terminal.waitFor("nothing was saved")
        #expect(try terminal.pane("#{alternate_on}") == "1")
        #expect(try fixture.journal.fingerprint() == before)
        try terminal.type("l")
        try fixture.waitForTotal(try fixture.total("brul"))
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func everyStrategyIsATabAway() throws {
        let fixture = try Fixture(arguments: ["--interactive", "cafe"])
        defer { fixture.remove() }
        let terminal = fixture.terminal
        let start = try #require(SearchStrategies.all.firstIndex(of: SearchStrategies.standard))
        try fixture.waitForTotal(try fixture.total("cafe"))
        for step in 1...SearchStrategies.all.count {
            let strategy = SearchStrategies.all[(start + step) % SearchStrategies.all.count]
            try terminal.press("Tab")
            try fixture.waitForTotal(try fixture.total("cafe", ["--strategy", strategy.name]), strategy: strategy.name)
        }
        try terminal.press("BTab")
        try fixture.waitForTotal(
            try fixture.total("cafe", ["--strategy", StrategyID.token.name]), strategy: StrategyID.token.name)
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    /// Ctrl-O goes from newest first to most relevant first to oldest first and back, each list
    /// as `journal search --sort` gives it, the status line saying which.
    @Test func ctrlOChangesTheOrder() throws {
        let fixture = try Fixture(arguments: ["--interactive", "cafe"])
        defer { fixture.remove() }
        let terminal = fixture.terminal
        let total = try fixture.total("cafe")
        try fixture.waitForTotal(total)
        for (order, status) in [("relevance", "most relevant first"), ("oldest", "oldest first"), ("newest", "")] {
            try terminal.press("C-o")
            let lines = try terminal.waitFor("the list \(order)") { lines in
                lines.count > 2 && !lines[1].contains("searching")
                    && (status.isEmpty ? !lines[1].contains(" first") : lines[1].contains(status))
            }
            #expect(lines[1].contains("of \(total) entr"), "\(lines[1])")
            #expect(Fixture.listed(lines) == (try fixture.newest("cafe", ["--sort", order])), "\(order)")
        }
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    /// Lines of CJK text and emoji (two columns each) fit the width: a line the screen thought
    /// shorter than it is would run past the edge and lose its closing "…".
    @Test func wideCharactersAndEmojiStayInTheirColumns() throws {
        let fixture = try Fixture(columns: 60)
        defer { fixture.remove() }
        let terminal = fixture.terminal
        for query in ["東京", "图书馆"] {
            try terminal.press("C-u")
            try terminal.type(query)
            let lines = try fixture.waitForTotal(try fixture.total(query))
            #expect(lines[0] == "> \(query)")
            let results = lines.dropFirst(2).filter { !$0.isEmpty }
            #expect(!results.isEmpty)
            for line in results {
                let columns = line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 && $1.value != 0x2026 ? 2 : 1) }
                #expect(columns <= 60, "\(line) is \(columns) columns wide")
                #expect(line.hasSuffix("…") || line.hasSuffix("🎉") || columns < 59, "\(line) was cut by the terminal")
            }
        }
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func aPasteIsOneEditOfTheQuery() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(300)
        try terminal.paste("crème\nbrûlée")
        let lines = try fixture.waitForTotal(try fixture.total("crème brûlée"))
        #expect(lines[0] == "> crème brûlée")
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func aResizeIsRedrawnAtTheNewSize() throws {
        let fixture = try Fixture(columns: 100, rows: 20)
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(300)
        try terminal.resize(columns: 50, rows: 8)
        let lines = try terminal.waitFor("a redraw at 50 columns") { lines in
            lines.count == 8 && lines.dropFirst(2).allSatisfy { $0.isEmpty || $0.hasSuffix("…") }
        }
        #expect(lines[1].contains("of 300 entries"))
        #expect(lines.dropFirst(2).filter { !$0.isEmpty }.count == 6)
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func filtersFromTheCommandLineApply() throws {
        let fixture = try Fixture(arguments: ["--tag", "picnic", "--starred"]) { journal in
            try #require(try journal.run(["add", "--tag", "picnic", "--star", "Bread for the picnic"]).status == 0)
            try #require(try journal.run(["add", "--tag", "picnic", "Cheese for the picnic"]).status == 0)
            try #require(try journal.run(["add", "--star", "A picnic without a tag"]).status == 0)
        }
        defer { fixture.remove() }
        let terminal = fixture.terminal
        let lines = try fixture.waitForTotal(1)
        #expect(lines[1].contains("#picnic · starred"))
        #expect(lines[2].contains("Bread for the picnic") && lines[2].contains("#picnic"))
        try terminal.type("pic")
        try fixture.waitForTotal(try fixture.total("pic", ["--tag", "picnic", "--starred"]))
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    /// The syntax as it is typed: an open quote is a phrase being typed, not an error; a date
    /// that is not one (pasted, so that no query comes between) shows on the status line and
    /// the last results stay.
    @Test func theQuerySyntaxIsReadAsItIsTyped() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(300)
        try terminal.type("\"crème br")
        let phrase = try fixture.waitForTotal(try fixture.total("\"crème br"))
        #expect(Fixture.listed(phrase) == (try fixture.newest("\"crème br")))
        try terminal.type("\"")
        try fixture.waitForTotal(try fixture.total("\"crème br\""))
        try terminal.paste(" from:someday")
        let failed = try terminal.waitFor("the date is not understood") { lines in
            lines.count > 2 && lines[1].contains("is not understood") && !lines[1].contains("searching")
        }
        #expect(failed[1].contains("of \(try fixture.total("\"crème br\"")) entr"))
        #expect(Fixture.listed(failed) == (try fixture.newest("\"crème br\"")))
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    /// A phrase typed up to a short last word in a journal where thousands of entries hold its
    /// words: the page comes before its count, and the screen then settles on the exact total
    /// and the same newest entries as `journal search`.
    @Test func aPhraseSlowToCountSettlesOnItsTotal() throws {
        let words = ["the", "tea", "table", "tiger", "then", "cat"]
        let fixture = try Fixture { journal in
            let lines = (0..<5_000).map { index in
                let text = (0..<6).map { words[($0 * 7 + index * 3 + $0 * index) % words.count] }
                return #"{"text":"\#(text.joined(separator: " ")) \#(index)"}"#
            }
            let file = journal.store.appendingPathExtension("phrases.jsonl")
            try Data(lines.joined(separator: "\n").utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            try #require(try journal.run(["import", file.path]).status == 0)
        }
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try fixture.waitForTotal(5_300)
        try terminal.type("\"the t")
        let shown = try fixture.waitForTotal(try fixture.total("\"the t"))
        #expect(!shown[1].contains("counting"))
        #expect(Fixture.listed(shown) == (try fixture.newest("\"the t")))
        try terminal.press("Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func colourOnlyWithoutNoColor() throws {
        for noColor in ["", "1"] {
            let fixture = try Fixture(arguments: ["--interactive", "café"], environment: ["NO_COLOR": noColor])
            defer { fixture.remove() }
            try fixture.waitForTotal(try fixture.total("café"))
            let styled = try fixture.terminal.screen(escapes: true).joined(separator: "\n")
            #expect(styled.contains("\u{1B}[") == noColor.isEmpty, "NO_COLOR=\(noColor)")
            try fixture.terminal.press("Escape")
            #expect(try fixture.terminal.waitForExit() == (0, true))
        }
    }

    @Test func everyWayOutRestoresTheTerminal() throws {
        for way in ["Escape", "C-c", "SIGTERM", "SIGHUP"] {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let terminal = fixture.terminal
            try fixture.waitForTotal(300)
            try terminal.type("bru")
            try fixture.waitForTotal(try fixture.total("bru"))
            #expect(try terminal.pane("#{alternate_on}") == "1")
            if way.hasPrefix("SIG") {
                let shell = try terminal.pane("#{pane_pid}")
                let kill = Process()
                kill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
                kill.arguments = ["-\(way.dropFirst(3))", "-P", shell]
                try kill.run()
                kill.waitUntilExit()
            } else {
                try terminal.press(way)
            }
            let ended = try terminal.waitForExit()
            #expect(ended.status == (way == "SIGTERM" ? 143 : way == "SIGHUP" ? 129 : 0), "\(way)")
            #expect(ended.restored, "\(way)")
            #expect(try terminal.pane("#{alternate_on}") == "0", "\(way)")
            #expect(try terminal.pane("#{cursor_flag}") == "1", "\(way)")
        }
    }

    @Test func anEnormousEntryIsFoundShownInFullAndScrolledToItsEnd() throws {
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 80_000) + "zanzibar the end"
        let fixture = try Fixture(rows: 12) { journal in
            let line = String(decoding: try JSONSerialization.data(withJSONObject: ["text": text]), as: UTF8.self)
            try #require(try journal.run(["import", try journal.file([line])]).status == 0)
        }
        defer { fixture.remove() }
        let terminal = fixture.terminal
        try terminal.type("zanz")
        let lines = try fixture.waitForTotal(1)
        #expect(lines[2].hasSuffix("zanzibar the end"))
        try terminal.press("Enter", "End")
        try terminal.waitFor("the end of the entry") { lines in
            lines.contains { $0.hasSuffix("zanzibar the end") }
                && lines.last { !$0.isEmpty }?.contains(" · lines ") == true
        }
        try terminal.press("Escape", "Escape")
        #expect(try terminal.waitForExit() == (0, true))
    }

    @Test func withoutATerminalAQueryIsStillRequired() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        try #require(try journal.run(["add", "one entry"]).status == 0)
        let bare = try journal.run(["search"])
        #expect(bare.status == 2)
        #expect(bare.error.contains("query is empty"))
        let interactive = try journal.run(["search", "--interactive"])
        #expect(interactive.status == 2)
        #expect(interactive.error.contains("needs a terminal"))
    }

    /// The full screen pages by screens: --limit or --offset with --interactive is refused,
    /// and a bare search that asks for a page is a one-shot search (which wants a query).
    @Test func aPageAskedForIsNotTheFullScreen() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        try #require(try journal.run(["add", "one entry"]).status == 0)
        for (arguments, message) in [
            (["search", "--interactive", "--limit", "5"], "drop --limit and --offset"),
            (["search", "--interactive", "one", "--offset", "1"], "drop --limit and --offset"),
            (["search", "--limit", "5"], "query is empty"),
        ] {
            let terminal = try TmuxSession([JournalProcess.executable.path, "--store", journal.store.path] + arguments)
            let ended = try terminal.waitForExit()
            #expect(ended.status == 2, "\(arguments)")
            #expect(try terminal.screen().contains { $0.contains(message) }, "\(arguments)")
        }
    }

    /// A terminal whose TERM is "dumb" (an editor's shell buffer) can't draw a screen: a bare
    /// `search` wants a query there too, and --interactive says why it can't open.
    @Test func aDumbTerminalGetsNoFullScreen() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        try #require(try journal.run(["add", "one entry"]).status == 0)
        for (arguments, message) in [
            (["search"], "query is empty"), (["search", "--interactive"], "TERM is \"dumb\""),
        ] {
            let terminal = try TmuxSession(
                [JournalProcess.executable.path, "--store", journal.store.path] + arguments,
                environment: ["TERM": "dumb"])
            let ended = try terminal.waitForExit()
            #expect(ended.status == 2, "\(arguments)")
            #expect(try terminal.screen().contains { $0.contains(message) }, "\(arguments)")
            #expect(try terminal.pane("#{alternate_on}") == "0", "\(arguments)")
        }
    }
}
