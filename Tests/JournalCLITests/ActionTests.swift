import Foundation
import Testing

/// `tag`, `untag`, `star`, `unstar` and `delete` on what a query and filters find: the set,
/// worked out by hand, changed in one write; asked about on a terminal, refused without one
/// unless `--yes`.
@Suite struct ActionTests {
    /// p1…p6: dated one a year from 2020, the texts below.
    private static func journal() throws -> JournalProcess {
        let journal = JournalProcess()
        for (year, text) in [
            (2020, "tokyo in spring"), (2021, "kyoto temples #Japan"), (2022, "tokyo again, work"),
            (2023, "paris, work"),
            (2024, "tokyo with Ana"), (2025, "lisbon #travel"),
        ] {
            #expect(
                try journal.run(["add", "--date", "\(year)-04-01 10:00", text], environment: ["TZ": "UTC"]).status == 0)
        }
        return journal
    }

    private func ids(_ outcome: JournalProcess.Outcome, _ key: String) throws -> [String] {
        #expect(outcome.status == 0, "\(outcome.error)")
        return (try outcome.json()[key] as? [String] ?? []).map { $0.components(separatedBy: "/").last ?? "" }
    }

    private func tagged(_ journal: JournalProcess, _ tag: String) throws -> [String] {
        let listed = try journal.run(["list", "--tag", tag, "--json"]).json()["results"] as? [[String: Any]] ?? []
        return listed.compactMap { ($0["id"] as? String)?.components(separatedBy: "/").last }
    }

    @Test func actsOnEveryEntryAQueryAndFiltersFind() throws {
        let journal = try Self.journal()
        defer { journal.removeStore() }
        let utc = ["TZ": "UTC"]
        // tokyo from 2021: p3, p5.
        #expect(
            try ids(
                journal.run(
                    ["tag", "--query", "tokyo", "--from", "2021", "Voyage", "#Été", "--yes", "--json"], environment: utc
                ), "tagged")
                == ["p5", "p3"])
        #expect(try tagged(journal, "voyage") == ["p5", "p3"])
        let shown = try journal.run(["show", "p3", "--json"]).json()
        #expect(shown["tags"] as? [String] == ["Été", "Voyage"], "kept as given")
        // (tokyo OR kyoto) -work: p1, p2, p5.
        #expect(
            try ids(journal.run(["star", "--query", "(tokyo OR kyoto) -work", "-y", "--json"]), "starred") == [
                "p5", "p2", "p1",
            ])
        #expect(
            try ids(
                journal.run(["unstar", "--starred", "--from", "2024", "-y", "--json"], environment: utc), "unstarred")
                == ["p5"])
        // A filter alone chooses too: every entry tagged voyage.
        let untag = try journal.run(["untag", "--tag", "voyage", "voyage", "--yes"])
        #expect(untag.output == "untagged 2 entries from #voyage\n")
        #expect(try tagged(journal, "voyage").isEmpty)
        // A tag written in the text stays, and the command says so.
        let written = try journal.run(["untag", "--query", "kyoto", "japan", "--yes"])
        #expect(written.error == "journal: 1 entry has one of these written in its text, where it stays\n")
        #expect(try tagged(journal, "japan") == ["p2"])
        // delete: one write for the set; the search store follows.
        #expect(try journal.run(["delete", "--query", "work", "--yes"]).output == "deleted 2 entries\n")
        #expect(try journal.run(["search", "work", "--json"]).json()["total"] as? Int == 0)
        #expect(try journal.run(["list", "--json"]).json()["total"] as? Int == 4)
        #expect(try journal.run(["verify"]).status == 0)
        // Nothing found: nothing to do, and it says so.
        #expect(
            try journal.run(["star", "--query", "reykjavik", "--yes"]).output == "no entries found; nothing starred\n")
    }

    @Test func withoutATerminalOrAnIdentifierNothingIsWritten() throws {
        let journal = try Self.journal()
        defer { journal.removeStore() }
        let before = try journal.fingerprint()
        let unasked = try journal.run(["delete", "--query", "tokyo"])
        #expect(unasked.status == 2)
        #expect(
            unasked.error
                == "journal: 3 entries found; add --yes to delete them without being asked (there is no terminal to ask on)\n"
        )
        for bad in [
            ["tag", "--query", "tokyo"], ["tag", "p1"], ["tag"], ["star"], ["star", "p1", "--starred"],
            ["untag", "--query", "x", "#"],
            ["delete", "p1", "--query", "tokyo"], ["star", "--query", "tokyo", "--on-this-day=someday", "--yes"],
        ] {
            let refused = try journal.run(bad)
            #expect(refused.status == 2, "\(bad): \(refused.error)")
            #expect(refused.error.split(separator: "\n").count == 1, "\(bad): \(refused.error)")
        }
        #expect(try journal.fingerprint() == before)
    }

    /// On a terminal the command shows what it found and asks; only y goes ahead.
    @Test func onATerminalItAsksFirst() throws {
        let journal = try Self.journal()
        defer { journal.removeStore() }
        let command = [
            JournalProcess.executable.path, "--store", journal.store.path, "tag", "--query", "tokyo", "Voyage",
        ]
        let refused = try TmuxSession(command)
        let asked = try refused.waitFor("3 entries found. Tag them with #Voyage? [y/N]")
        #expect(asked.contains { $0.hasPrefix("p5 ") && $0.contains("tokyo with Ana") })
        try refused.type("n")
        try refused.press("Enter")
        #expect(try refused.waitForExit().status == 1)
        #expect(try tagged(journal, "voyage").isEmpty)
        let accepted = try TmuxSession(command)
        try accepted.waitFor("Tag them with #Voyage? [y/N]")
        try accepted.type("y")
        try accepted.press("Enter")
        try accepted.waitFor("tagged 3 entries with #Voyage")
        #expect(try accepted.waitForExit().status == 0)
        #expect(try tagged(journal, "voyage") == ["p5", "p3", "p1"])
    }
}
