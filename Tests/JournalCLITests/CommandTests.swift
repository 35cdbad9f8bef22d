import Foundation
import GRDB
import JournalBench
import JournalKit
import Testing

@Suite struct CommandTests {
    /// ICU loads the Chinese and Japanese dictionary the first time a process needs one, and
    /// broke a run of Japanese that starts with ー or ｰ (letters of no script of their own) as
    /// "ー間" before, "ー" and "間" after: `add`, the first process to break the entry, indexed a token
    /// that a search breaking "間" never asked for.
    @Test func aWordIsTheSameWhateverTheProcessBrokeBefore() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        // The prolonged sound mark, full width and half width, each entry added by a new process.
        #expect(try journal.run(["add", "--date", "2024-05-01", "ー間の春"]).status == 0)
        #expect(try journal.run(["add", "--date", "2024-05-02", "ｰ間の秋"]).status == 0)
        #expect(try journal.run(["search", "--json", "間"]).json()["total"] as? Int == 2)
        // Folded, ｰ is ー.
        #expect(try journal.run(["search", "--json", "--", "ー"]).json()["total"] as? Int == 2)
    }

    @Test func importsAndSearchesWithJSONCheckedFieldByField() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let input = try journal.file([
            #"{"date": "2024-05-01T08:30:00+02:00", "text": "Thé Crème BRÛLÉE, deux fois"}"#,
            #"{"date": "2024-05-02T09:00:00.250Z", "text": "東京タワーに行きました"}"#,
            #"{"date": "2024-05-03T00:00:00Z", "text": "crème fraîche 50% off_sale (a.b) \\ \u0000 end"}"#,
        ])
        let imported = try journal.run(["import", input, "--json"])
        #expect(imported.status == 0, "\(imported.error)")
        let summary = try imported.json()
        #expect(summary["imported"] as? Int == 3)

        let search = try journal.run(["search", "creme", "--json"])
        #expect(search.status == 0)
        let object = try search.json()
        #expect(object["query"] as? String == "creme")
        #expect(object["strategy"] as? String == StrategyID.prefix.name)
        #expect(object["total"] as? Int == 2)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(
            results.map { $0["text"] as? String } == [
                "crème fraîche 50% off_sale (a.b) \\ \u{0} end", "Thé Crème BRÛLÉE, deux fois",
            ])
        #expect(results.map { $0["date"] as? String } == ["2024-05-03T00:00:00Z", "2024-05-01T06:30:00Z"])
        let ids = results.compactMap { $0["id"] as? String }
        #expect(ids.count == 2)
        #expect(ids.allSatisfy { $0.wholeMatch(of: /x-journal:\/\/[0-9A-F-]{36}\/Entry\/p[0-9]+/) != nil })
        #expect(ids[0].hasSuffix("/Entry/p3") && ids[1].hasSuffix("/Entry/p1"))
        #expect(ids[0].dropLast(2) == ids[1].dropLast(2), "one store UUID")

        let japanese = try journal.run(["search", "東京", "--json"]).json()
        #expect(japanese["total"] as? Int == 1)
        #expect((japanese["results"] as? [[String: Any]])?.first?["date"] as? String == "2024-05-02T09:00:00.25Z")

        let multiword = try journal.run(["search", "fra", "cre", "--json"]).json()
        #expect(multiword["query"] as? String == "fra cre")
        #expect(multiword["total"] as? Int == 1)

        let none = try journal.run(["search", "absent", "--json"])
        #expect(none.status == 0)
        #expect(try none.json()["total"] as? Int == 0)
        #expect(try none.json()["results"] as? [Any] != nil)
    }

    @Test func pagesNewestFirstWithExactTotals() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let lines = (1...25).map {
            #"{"date": "2024-01-\#(String(format: "%02d", $0))T12:00:00Z", "text": "day \#($0) walk"}"#
        }
        #expect(try journal.run(["import", journal.file(lines)]).status == 0)

        let page = try journal.run(["search", "walk", "--limit", "10", "--offset", "20", "--json"]).json()
        #expect(page["total"] as? Int == 25)
        #expect(
            (page["results"] as? [[String: Any]])?.map { $0["text"] as? String }
                == (1...5).reversed().map { "day \($0) walk" })

        let all = try journal.run(["search", "walk", "--limit", "0", "--json"]).json()
        #expect((all["results"] as? [Any])?.count == 25)
        let beyond = try journal.run(["search", "walk", "--offset", "100", "--json"]).json()
        #expect((beyond["results"] as? [Any])?.count == 0)
        #expect(beyond["total"] as? Int == 25)
        // An offset and a limit that add up past the largest integer, by every strategy and order.
        let largest = String(Int.max)
        for strategy in ["prefix", "token", "fts5", "contains[n]"] {
            for sort in ["newest", "oldest", "relevance"]
            where sort != "relevance" || ["prefix", "token"].contains(strategy) {
                let far = try journal.run([
                    "search", "walk", "--strategy", strategy, "--sort", sort, "--offset=\(largest)",
                    "--limit=\(largest)",
                    "--json",
                ])
                #expect(far.status == 0, "\(strategy) \(sort): \(far.error)")
                #expect(try far.json()["total"] as? Int == 25, "\(strategy) \(sort)")
            }
        }

        let text = try journal.run(["search", "walk"])
        let lastLine = text.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("20 of 25 entries"))
        #expect(text.output.split(separator: "\n").first?.contains("day 25 walk") == true)

        let listed = try journal.run(["list", "--limit", "3", "--offset", "1", "--json"]).json()
        #expect(
            (listed["results"] as? [[String: Any]])?.map { $0["text"] as? String } == [
                "day 24 walk", "day 23 walk", "day 22 walk",
            ])
        #expect(listed["total"] as? Int == 25)
    }

    /// `stats --tables` sizes the search store by table in the pages they use, and beside the
    /// FTS5 index once the fts5 strategy has built it; without it, nothing reads every page.
    @Test func statsSizesTheSearchStoreByTableBesideFTS5() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the walk along the river"]).status == 0)
        #expect(try journal.run(["add", "a second walk"]).status == 0)
        let plain = try journal.run(["stats", "--json"]).json()
        #expect(plain["search_store_tables"] == nil)

        let before = try journal.run(["stats", "--tables", "--json"]).json()
        let tables = try #require(before["search_store_tables"] as? [[String: Any]])
        let names = tables.compactMap { $0["name"] as? String }
        #expect(
            names.contains("posting") && names.contains("document") && !names.contains { $0.hasPrefix("entry_fts") })
        let sum = tables.compactMap { $0["bytes"] as? Int }.reduce(0, +)
        #expect(sum == before["search_store_table_bytes"] as? Int)
        #expect(before["fts5_index_bytes"] is NSNull)
        #expect((before["search_store_free_bytes"] as? Int ?? -1) >= 0)
        let text = try journal.run(["stats", "--tables"])
        #expect(text.output.contains("search store by table") && text.output.contains("FTS5 index   not built"))

        #expect(try journal.run(["search", "--strategy=fts5", "walk", "--json"]).json()["total"] as? Int == 2)
        let after = try journal.run(["stats", "--tables", "--json"]).json()
        let fts5 = try #require(after["fts5_index_tables"] as? [[String: Any]])
        #expect(fts5.allSatisfy { ($0["name"] as? String)?.hasPrefix("entry_fts") == true } && !fts5.isEmpty)
        #expect((after["fts5_index_bytes"] as? Int ?? 0) > 0)
        #expect(try journal.run(["stats", "--tables"]).output.contains("the search store is"))
    }

    @Test func deleteRemovesTheEntryFromBothStores() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "shared words", "uniquezebra"]).status == 0)
        #expect(try journal.run(["add", "shared words again"]).status == 0)
        let before = try journal.run(["stats", "--json"]).json()
        #expect(before["entries"] as? Int == 2)
        #expect(before["indexed_entries"] as? Int == 2)

        let deleted = try journal.run(["delete", "p1"])
        #expect(deleted.status == 0)
        #expect(deleted.output == "deleted p1\n")
        let after = try journal.run(["stats", "--json"]).json()
        #expect(after["entries"] as? Int == 1)
        #expect(after["indexed_entries"] as? Int == 1)
        #expect(after["tokens"] as? Int == (before["tokens"] as? Int ?? 0) - 1, "uniquezebra left the token table")
        #expect(try journal.run(["search", "uniquezebra", "--json"]).json()["total"] as? Int == 0)
        #expect(try journal.run(["search", "shared", "--json"]).json()["total"] as? Int == 1)

        let again = try journal.run(["delete", "p1"])
        #expect(again.status == 1)
        #expect(again.error.contains("no entry"))
        #expect(try journal.run(["show", "1"]).status == 1)
    }

    @Test func datesAreReadAsPeopleTypeThemInTheLocalTimeZone() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let tokyo = ["TZ": "Asia/Tokyo"]
        let added = try journal.run(["add", "--date", "2024-05-01 9:30", "--json", "morning"], environment: tokyo)
            .json()
        #expect(added["date"] as? String == "2024-05-01T00:30:00Z")
        let evening = try journal.run(
            ["add", "--date", "1 may 2024 9pm", "--json", "evening"], environment: ["TZ": "America/New_York"]
        )
        .json()
        #expect(evening["date"] as? String == "2024-05-02T01:00:00Z")
        let edited = try journal.run(["edit", "p1", "--date", "may 2 2024", "--json"], environment: tokyo).json()
        #expect(edited["date"] as? String == "2024-05-01T15:00:00Z")
        let exact = try journal.run(
            ["add", "--date", "2024-05-01T08:30:00+02:00", "--json", "exact"], environment: tokyo
        ).json()
        #expect(exact["date"] as? String == "2024-05-01T06:30:00Z", "an offset is kept whatever TZ says")
    }

    @Test func filtersListAndSearchWithDatesAsPeopleTypeThem() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let utc = ["TZ": "UTC"]
        for (date, text, extra) in [
            ("2023-05-01T10:00", "walk in may last year", ["--star"]), ("2024-05-01T10:00", "walk in may #rain", []),
            ("2024-05-31T22:00", "walk late in may", ["--tag", "rain"]),
            ("2024-06-01T10:00", "walk in june", ["--star"]),
        ] {
            #expect(try journal.run(["add", "--date", date] + extra + [text], environment: utc).status == 0)
        }
        func total(_ arguments: [String]) throws -> Int? {
            let outcome = try journal.run(arguments + ["--json"], environment: utc)
            #expect(outcome.status == 0, "\(arguments): \(outcome.error)")
            return try outcome.json()["total"] as? Int
        }
        for strategy in [SearchStrategies[.prefix], SearchStrategies[.containsN], SearchStrategies[.fts5]].map(\.alias)
        {
            let search = ["search", "walk", "--strategy", strategy]
            #expect(try total(search + ["--on", "may 2024"]) == 2, "\(strategy)")
            #expect(
                try total(search + ["--from", "2024", "--to", "2024-05-31"]) == 2,
                "\(strategy): a day means the whole day")
            #expect(try total(search + ["--to", "2023"]) == 1, "\(strategy)")
            #expect(try total(search + ["--tag", "#Rain"]) == 2, "\(strategy)")
            #expect(try total(search + ["--starred", "--from", "2024"]) == 1, "\(strategy)")
        }
        #expect(try total(["list", "--on", "2024-05-31"]) == 1)
        #expect(try total(["list", "--starred"]) == 2)
        let bad = try journal.run(["list", "--from", "the other day"])
        #expect(bad.status == 2 && bad.error.contains("\"the other day\""), "\(bad.error)")
        #expect(try journal.run(["list", "--on", "2024", "--to", "2025"]).status == 2)

        // On this day: 1 May in earlier years, newest first, each year under its heading.
        let may = try journal.run(["list", "--on-this-day=2025-05-01"], environment: utc)
        #expect(
            may.output.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
                "1 year ago", "p2 2024-05-01 10:00", "2 years ago", "p1 2023-05-01 10:00", "2 of 2",
            ])
        let mayJSON = try #require(
            try journal.run(["list", "--on-this-day=2025-05-01", "--json"], environment: utc).json()["results"]
                as? [[String: Any]])
        #expect(mayJSON.map { $0["years_ago"] as? Int } == [1, 2])
        #expect(try total(["list", "--on-this-day=2025-05-01", "--starred"]) == 1)
        #expect(try total(["list", "--on-this-day", "--starred"]) == 0, "today, then another option")
        #expect(
            try total(["search", "walk", "--on-this-day=2025-06-01"]) == 1, "31 May 22:00 UTC is not 1 June in UTC")
        #expect(try total(["search", "walk", "--on-this-day=2025-06-01", "--tag", "rain"]) == 0)
        #expect(
            try journal.run(["list", "--on-this-day=2025-06-01"], environment: ["TZ": "Europe/Paris"]).output.contains(
                "p3"),
            "it is in Paris")
        #expect(
            try journal.run(["list", "--on-this-day=2025-02-14"]).output
                == "no entries on 14 February in earlier years\n")
        let noDate = try journal.run(["list", "--on-this-day=someday"])
        #expect(noDate.status == 2 && noDate.error.contains("\"someday\""), "\(noDate.error)")
    }

    @Test func exportsJSONLinesThatImportGivesBackAndMarkdownToRead() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let utc = ["TZ": "UTC"]
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        #expect(
            try journal.run(
                ["add", "--date", "2024-07-01 9:00", "--tag", "Cooking", "--star", "Crème brûlée #dessert"],
                environment: utc
            )
            .status == 0)
        #expect(try journal.run(["add", "--date", "2024-07-01 21:00", "second entry"], environment: utc).status == 0)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("all.jsonl")
        let exported = try journal.run(["export", "-o", file.path])
        #expect(exported.status == 0 && exported.error == "exported 302 entries to \(file.path)\n", "\(exported.error)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["all.jsonl"], "no partial file left")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)

        // Imported into an empty journal, it gives the same journal back.
        let copy = JournalProcess()
        defer { copy.removeStore() }
        #expect(try copy.run(["import", file.path]).status == 0)
        func withoutIDs(_ text: String) throws -> [NSDictionary] {
            try text.split(separator: "\n").map {
                let object = try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                return object.filter { $0.key != "id" } as NSDictionary
            }
        }
        let original = try withoutIDs(String(decoding: JournalProcess.contents(of: file), as: UTF8.self))
        #expect(original.count == 302)
        #expect(try withoutIDs(copy.run(["export"]).output) == original)

        let july = try journal.run(["export", "--on", "2024-07", "--format", "markdown"], environment: utc)
        #expect(
            july.output
                == "# Journal\n\n## 2024-07-01\n\n### 09:00 ★\n\n#Cooking #dessert\n\nCrème brûlée #dessert\n\n### 21:00\n\nsecond entry\n"
        )
        #expect(try journal.run(["export", "--tag", "dessert"]).output.split(separator: "\n").count == 1)

        // Imported back into the journal it came from, it adds nothing.
        let again = try journal.run(["import", file.path])
        #expect(again.status == 0)
        #expect(again.output.hasPrefix("imported 0 entries in "), "\(again.output)")
        #expect(again.output.hasSuffix("; left out 302 the journal holds already\n"), "\(again.output)")
        let stats = try journal.run(["stats", "--json"]).json()
        #expect(stats["entries"] as? Int == 302)
        // The sample has over a thousand distinct tokens: the prefix table has its file.
        let prefixFile = journal.store.appendingPathComponent("search.sqlite-prefix").path
        let prefixBytes = try FileManager.default.attributesOfItem(atPath: prefixFile)[.size] as? Int
        #expect(stats["prefix_table_bytes"] as? Int == prefixBytes && (prefixBytes ?? 0) > 0)
        // A deleted entry comes back; the others stay single.
        #expect(try journal.run(["delete", "p5"]).status == 0)
        let restored = try journal.run(["import", file.path, "--json"]).json()
        #expect(restored["imported"] as? Int == 1 && restored["already_present"] as? Int == 301)

        let refused = try journal.run(["export", "-o", folder.appendingPathComponent("missing/x.jsonl").path])
        #expect(refused.status == 1 && refused.error.contains("cannot write"), "\(refused.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["all.jsonl"])
    }

    @Test func exportsJrnlsFormatsThatImportReadsBack() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let paris = ["TZ": "Europe/Paris"]
        for arguments in [
            ["add", "--date", "2024-07-01 21:05", "--tag", "Cooking", "--star", "Crème brûlée #dessert\n\nWith @Ana."],
            ["add", "--date", "2024-07-02 08:00", "Coffee, then work. #dessert"],
            ["add", "--date", "2024-07-03 12:00", "Five stars *"],
        ] {
            #expect(try journal.run(arguments, environment: paris).status == 0)
        }

        let json = try journal.run(["export", "--format", "json"], environment: paris)
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        // As jrnl names them: the tags it reads in the text, sign kept, lowercased; then the given one.
        #expect(document["tags"] as? [String: Int] == ["#dessert": 2, "#cooking": 1, "@ana": 1])
        let entries = try #require(document["entries"] as? [[String: Any]])
        #expect(
            entries.map { $0["title"] as? String } == [
                "Crème brûlée #dessert", "Coffee, then work. #dessert", "Five stars *",
            ])
        #expect(entries.map { $0["body"] as? String } == ["\nWith @Ana.", "", ""])
        #expect(entries.map { $0["date"] as? String } == ["2024-07-01", "2024-07-02", "2024-07-03"])
        #expect(entries.map { $0["time"] as? String } == ["21:05", "08:00", "12:00"])
        #expect(entries.map { $0["tags"] as? [String] } == [["#dessert", "@ana", "#cooking"], ["#dessert"], []])
        #expect(entries.map { $0["starred"] as? Bool } == [true, false, false])

        let text = try journal.run(["export", "--format", "txt"], environment: paris)
        #expect(
            text.output == """
                [2024-07-01 09:05:00 PM] Crème brûlée #dessert *

                With @Ana.

                [2024-07-02 08:00:00 AM] Coffee, then work. #dessert

                [2024-07-03 12:00:00 PM] Five stars *

                """)
        #expect(
            text.error
                == "note: p1: jrnl's text keeps only the tags written in it, not #Cooking\n"
                + "note: p3: its first line ends with *, which jrnl reads as a star\n")

        // Each imports into an empty journal with the same texts, dates and stars (but the one jrnl can't say).
        for (format, output) in [("json", json.output), ("txt", text.output)] {
            let copy = JournalProcess()
            defer { copy.removeStore() }
            let imported = try copy.run(["import", "-", "--json"], input: Data(output.utf8), environment: paris).json()
            #expect(imported["imported"] as? Int == 3, "\(format)")
            let listed = try #require(try copy.run(["list", "--json"]).json()["results"] as? [[String: Any]])
            #expect(
                listed.map { $0["date"] as? String } == [
                    "2024-07-03T10:00:00Z", "2024-07-02T06:00:00Z", "2024-07-01T19:05:00Z",
                ])
            #expect(listed.map { $0["starred"] as? Bool } == [format == "txt", false, true], "\(format)")
            #expect(listed.last?["text"] as? String == "Crème brûlée #dessert\n\nWith @Ana.")
            #expect(
                listed.last?["tag_names"] as? [String]
                    == (format == "json" ? ["ana", "cooking", "dessert"] : ["ana", "dessert"]))
        }
        // Imported into the journal they came from, they add nothing.
        for output in [json.output, text.output] {
            let again = try journal.run(["import", "-", "--json"], input: Data(output.utf8), environment: paris).json()
            #expect(
                again["imported"] as? Int == (output == text.output ? 1 : 0), "all but the entry jrnl reads as starred")
        }
    }

    /// tags and stats on what a query and filters find; stats --by as a bar chart and as JSON.
    @Test func countsWhatAQueryFinds() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let utc = ["TZ": "UTC"]
        for (date, text) in [
            ("2023-01-15", "tokyo #Trip #art"), ("2023-03-02", "paris #trip"), ("2024-06-01", "kyoto #trip #japan"),
            ("2024-06-02", "home"),
        ] {
            #expect(try journal.run(["add", "--date", date + " 10:00", text], environment: utc).status == 0)
        }
        // #trip is written twice, #Trip once: the journal shows #trip.
        #expect(try journal.run(["tags", "--query", "tokyo OR kyoto"]).output == "2  #trip\n1  #art\n1  #japan\n")
        #expect(
            try journal.run(["tags", "--from", "2024", "--query", "#trip"], environment: utc).output
                == "1  #japan\n1  #trip\n")
        #expect(try journal.run(["tags", "--query", "nowhere"]).output == "no tags among the entries found\n")
        let byYear = try journal.run(
            ["stats", "--by", "year", "--query", "#trip"], environment: utc.merging(["COLUMNS": "40"]) { $1 })
        let chart = byYear.output.split(separator: "\n").suffix(3).map(String.init)
        #expect(chart[0] == "entries by year · “#trip”")
        #expect(chart[1].hasPrefix("2023  ██") && chart[1].hasSuffix("  2"))
        #expect(chart[2].hasPrefix("2024  ██") && chart[2].hasSuffix("  1"))
        let (full, half) = (chart[1].filter { $0 == "█" }.count, chart[2].filter { $0 == "█" }.count)
        #expect(chart[1].count == 40 && abs(full - 2 * half) <= 1, "one column each, the bars two to one")
        #expect(byYear.output.contains("found        3  “#trip”"))
        let json = try journal.run(["stats", "--by", "month", "--from", "2023-02", "--json"], environment: utc).json()
        #expect(json["found"] as? Int == 3)
        let months = try #require(json["by_month"] as? [[String: Any]])
        #expect(months.count == 16, "2023-03 to 2024-06, the empty months too")
        #expect(months.first?["period"] as? String == "2023-03" && months.first?["entries"] as? Int == 1)
        #expect(months.last?["period"] as? String == "2024-06" && months.last?["entries"] as? Int == 2)
        #expect(try journal.run(["stats", "--by", "week"]).status == 2)
    }

    @Test func tagsAndStarsFromAddToListing() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let added = try journal.run([
            "add", "--tag", "Work", "--tag", "@idea-box", "--star", "--json", "Lunch at #Café with @Ana",
        ]).json()
        #expect(added["tags"] as? [String] == ["Ana", "Café", "idea-box", "Work"], "as written")
        #expect(added["tag_names"] as? [String] == ["ana", "cafe", "idea-box", "work"])
        #expect(added["starred"] as? Bool == true)
        #expect(try journal.run(["add", "another #cafe visit"]).status == 0)

        // #Café (given and written on p1) is used more than #cafe: every entry shows it so.
        #expect(try journal.run(["tag", "p2", "#東京", "walk"]).output == "p2: #Café #walk #東京\n")
        let untag = try journal.run(["untag", "p2", "cafe", "walk"])
        #expect(untag.output == "p2: #Café #東京\n")
        #expect(untag.error == "journal: #Café is written in the text of p2; edit the text to remove it\n")
        #expect(try journal.run(["unstar", "p1"]).output == "unstarred p1\n")
        #expect(try journal.run(["star", "p2"]).output == "starred p2\n")

        let tags = try journal.run(["tags"])
        #expect(tags.output == "2  #Café\n1  #Ana\n1  #idea-box\n1  #Work\n1  #東京\n")
        let listed = try journal.run(["list", "--json"]).json()
        let results = try #require(listed["results"] as? [[String: Any]])
        #expect(results.map { $0["starred"] as? Bool } == [true, false])
        #expect(try journal.run(["show", "p2"]).output.contains("#Café #東京"))
        #expect(
            try journal.run(["list"]).output.split(separator: "\n").first?.contains("★ another #cafe visit") == true)

        for bad in [["tag", "p1", "#"], ["add", "--tag", "--", "x"], ["tag", "p9", "x"]] {
            let refused = try journal.run(bad)
            #expect(refused.status == (bad[1] == "p9" ? 1 : 2), "\(bad): \(refused.error)")
            #expect(refused.error.split(separator: "\n").count == 1, "\(bad): \(refused.error)")
        }
        #expect(try journal.run(["verify"]).status == 0)
    }

    @Test func addsFromArgumentsAndStandardInputAndEdits() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let added = try journal.run(["add", "--date", "2023-12-31T23:00:00-02:00", "--json", "new", "year"])
        #expect(added.status == 0, "\(added.error)")
        let entry = try added.json()
        #expect(entry["text"] as? String == "new year")
        #expect(entry["date"] as? String == "2024-01-01T01:00:00Z")

        let piped = try journal.run(["add", "--json"], input: Data("  from a pipe\n\n".utf8))
        #expect(try piped.json()["text"] as? String == "  from a pipe\n", "only the last newline is dropped")

        let edited = try journal.run(["edit", "p1", "--text", "old year", "--json"])
        #expect(try edited.json()["text"] as? String == "old year")
        #expect(try journal.run(["search", "new", "--json"]).json()["total"] as? Int == 0)
        #expect(try journal.run(["search", "old", "--json"]).json()["total"] as? Int == 1)

        let redated = try journal.run(["edit", "1", "--date", "2020-02-02"], environment: ["TZ": "UTC"])
        #expect(redated.status == 0)
        let shown = try journal.run(["show", "p1", "--json"]).json()
        #expect(shown["date"] as? String == "2020-02-02T00:00:00Z")
        #expect(shown["text"] as? String == "old year")

        let uri = try #require(shown["id"] as? String)
        #expect(try journal.run(["show", uri]).output.contains("old year"))
    }

    @Test func editsInTheUsersEditor() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "an old entry"]).status == 0)
        let editor = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-editor-\(UUID().uuidString)")
        try Data("#!/bin/sh\nsed -i 's/old/new/' \"$1\"\n".utf8).write(to: editor)
        defer { try? FileManager.default.removeItem(at: editor) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: editor.path)

        let edited = try journal.run(["edit", "p1"], environment: ["EDITOR": editor.path])
        #expect(edited.status == 0, "\(edited.error)")
        #expect(try journal.run(["show", "p1", "--json"]).json()["text"] as? String == "an new entry")
        #expect(try journal.run(["edit", "p1"], environment: ["EDITOR": "true"]).output == "unchanged p1\n")

        let before = try journal.fingerprint()
        let failed = try journal.run(["edit", "p1"], environment: ["EDITOR": "false"])
        #expect(failed.status == 1)
        #expect(failed.error.contains("nothing was saved"))
        #expect(try journal.fingerprint() == before)
    }

    @Test func listsStrategiesAndAcceptsTheStoreFromTheEnvironment() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let list = try journal.run(["search", "--strategy", "list"])
        #expect(list.status == 0)
        let listed = list.output.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        #expect(listed == SearchStrategies.all.map(\.name))

        #expect(
            try journal.run(
                ["add", "via environment"], environment: ["JOURNAL_STORE": journal.store.path], useStore: false
            ).status == 0)
        #expect(try journal.run(["search", "environment", "--json"]).json()["total"] as? Int == 1)

        let help = try journal.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("search"))
    }
}

@Suite struct CompareAndGenerateCommandTests {
    @Test func generatesTheSameJournalForTheSameSeedAndImportsIt() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let first = try journal.run(["generate", "--entries", "30", "--seed", "4"], useStore: false)
        #expect(first.status == 0)
        #expect(
            first.output == (try journal.run(["generate", "--entries", "30", "--seed", "4"], useStore: false)).output)
        let lines = first.output.split(separator: "\n")
        #expect(lines.count == 30)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString).jsonl")
        try Data(first.output.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try journal.run(["import", file.path, "--json"]).json()["imported"] as? Int == 30)
        #expect(try journal.run(["generate", "--entries", "0"], useStore: false).status == 2)
    }

    @Test func comparesInEveryFormat() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let sample = JournalProcess.sampleCorpus
        #expect(try journal.run(["import", sample.path]).status == 0)

        let json = try journal.run(["compare", "--runs", "1", "--no-build-times", "--format", "json"])
        #expect(json.status == 0, "\(json.error)")
        let report = try json.json()
        let strategies = try #require(report["strategies"] as? [[String: Any]])
        #expect(strategies.map { $0["name"] as? String } == SearchStrategies.all.map(\.name))
        let groups = try #require(report["meant_to_agree"] as? [[String: Any]])
        #expect(groups.count == 5 && groups.allSatisfy { $0["agreed"] as? Bool == true })
        #expect(!json.error.isEmpty, "progress goes to standard error")

        let subset = try journal.run(["compare", "--runs", "1", "--strategies", "token,prefix", "--format", "markdown"])
        #expect(subset.status == 0)
        #expect(subset.output.contains("| token | word-prefix |"))
        #expect(subset.output.contains("token = prefix: agree on every query"))
        #expect(!subset.output.contains("| contains |"))

        let page = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        #expect(
            try journal.run(["compare", "--runs", "1", "--no-build-times", "--format", "html", "-o", page.path]).status
                == 0)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg") && html.contains("class=\"matrix\""))
        #expect(html.matches(of: /https?:\/\//).count == 1, "nothing to fetch: only the SVG namespace")

        let ladder = try journal.run(["compare", "--ladder", "--runs", "1", "--query", "the", "--format", "markdown"])
        #expect(ladder.status == 0, "\(ladder.error)")
        #expect(ladder.output.contains("| BEGINSWITH |") && ladder.output.contains("[n] is as cheap as plain"))

        let queries = try journal.file(["the", "crème"])
        let fromFile = try journal.run([
            "compare", "--runs", "1", "--no-build-times", "--queries", queries, "--strategies",
            SearchStrategies[.containsCD].alias,
            "--format", "json",
        ])
        #expect(
            (try fromFile.json()["queries"] as? [[String: Any]])?.map { $0["text"] as? String } == ["the", "crème"])

        for bad in [
            ["compare", "--strategies", "token,grep"], ["compare", "--strategies", " , "], ["compare", "--query", "x"],
            ["compare", "--runs", "0"], ["compare", "--format", "pdf"], ["search", "--regex", ""],
        ] {
            let outcome = try journal.run(bad)
            #expect(outcome.status == 2, "\(bad): \(outcome.error)")
            #expect(outcome.error.split(separator: "\n").count == 1)
        }
    }

    @Test func benchmarksGrowingJournalsAgainstFTS5() throws {
        let journal = JournalProcess()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let page = work.appendingPathComponent("bench.html")
        let outcome = try journal.run(
            [
                "bench", "--sizes", "300,600", "--runs", "1", "--cold-runs", "1", "--budget", "5",
                "--strategies", "contains,contains-n,token,prefix,fts5", "--work", work.path, "--format", "json",
                "--html", page.path,
            ], useStore: false)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.error.hasSuffix("wrote \(page.path)\n"), "\(outcome.error)")
        let report = try outcome.json()
        // Start-up: three journal processes that open no journal, each timed, beside sqlite3's.
        let startup = try #require(report["startup"] as? [String: Any])
        let processes = try #require(startup["processes"] as? [[String: Any]])
        #expect(
            processes.map { $0["command"] as? String } == [
                "journal --version", "journal --help", "journal search --strategy list",
            ])
        #expect(processes.allSatisfy { ($0["median_ms"] as? Double ?? 0) > 0 })
        #expect((startup["sqlite3_ms"] as? Double ?? 0) > 0)
        // The executable those processes ran: its size, what is mapped of it, its relocations.
        let executable = try #require(startup["executable"] as? [String: Any])
        let fileBytes = try #require(executable["file_bytes"] as? Int)
        #expect(
            fileBytes
                == (try FileManager.default.attributesOfItem(atPath: JournalProcess.executable.path)[.size] as? Int))
        #expect((executable["loaded_bytes"] as? Int ?? 0) > 0 && (executable["loaded_bytes"] as? Int ?? 0) <= fileBytes)
        #expect((executable["relocations"] as? Int ?? 0) > 1_000, "a Swift binary's metadata is full of pointers")
        #expect((executable["relocation_table_bytes"] as? Int ?? 0) > 0)
        let sizes = try #require(report["sizes"] as? [[String: Any]])
        #expect(sizes.map { $0["entries"] as? Int } == [300, 600])
        for size in sizes {
            for key in ["import_seconds", "fts5_index_seconds"] { #expect((size[key] as? Double ?? 0) > 0, "\(key)") }
            for key in [
                "import_peak_bytes", "main_store_bytes", "search_store_bytes", "fts5_index_bytes", "prefix_table_bytes",
            ] {
                #expect((size[key] as? Int ?? 0) > 0, "\(key)")
            }
            // The search store and FTS5's index in its best setup, by table: those of each and no other.
            let searchTables = try #require(size["search_store_tables"] as? [[String: Any]])
            #expect(searchTables.contains { $0["name"] as? String == "posting" })
            let bestSetup = try #require(size["fts5_best"] as? [String: Any])
            let fts5Tables = try #require(bestSetup["index_tables"] as? [[String: Any]])
            #expect(fts5Tables.contains { $0["name"] as? String == "journal_data" })
            #expect(!fts5Tables.contains { $0["name"] as? String == "journal_content" })
            #expect(fts5Tables.compactMap { $0["bytes"] as? Int }.reduce(0, +) == bestSetup["index_bytes"] as? Int)
            let typing = try #require(size["typing"] as? [[String: Any]])
            // The benchmark's words, then the phrases the query syntax timed (when the journal gave some).
            #expect(
                typing.filter { $0["typed"] as? String == "words" }.map { $0["strategy"] as? String } == [
                    StrategyID.token.name, StrategyID.prefix.name,
                ])
            #expect(typing.allSatisfy { ["words", "phrases"].contains($0["typed"] as? String ?? "") })
            for typed in typing {
                #expect((typed["keys"] as? Int ?? 0) > 10)
                #expect((typed["median_ms"] as? Double ?? 0) > 0)
                #expect((typed["with_total_median_ms"] as? Double ?? 0) >= (typed["median_ms"] as? Double ?? 1))
            }
            // On this day: thirteen days, each found alike by the journal and the scan (the run checks).
            let onThisDay = try #require(size["on_this_day"] as? [String: Any])
            #expect((onThisDay["days"] as? [String])?.count == 13 && (onThisDay["found"] as? [Int])?.count == 13)
            #expect((onThisDay["found"] as? [Int] ?? []).reduce(0, +) > 0, "a journal of many years has some")
            for key in ["median_ms", "scan_median_ms", "process_ms"] {
                #expect((onThisDay[key] as? Double ?? 0) > 0, "\(key)")
            }
            // The queries through journal serve, next to the library in process: the same answers.
            let served = try #require(size["served"] as? [String: Any])
            #expect((served["queries"] as? Int ?? 0) > 0)
            #expect(
                (served["in_process_median_ms"] as? Double ?? 0) > 0 && (served["served_median_ms"] as? Double ?? 0) > 0
            )
            #expect(served["disagreeing"] as? [String] == [])
            #expect((served["pipe_round_trip_median_ms"] as? Double ?? 0) > 0)
            // A new device taking every entry in through a sync folder, beside their import, round by round.
            let sync = try #require(size["sync_take_in"] as? [String: Any])
            #expect(sync["entries"] as? Int == size["entries"] as? Int && (sync["folder_bytes"] as? Int ?? 0) > 0)
            for key in ["take_in_seconds", "import_seconds"] {
                let rounds = try #require(sync[key] as? [Double])
                #expect(rounds.count == 3 && rounds.allSatisfy { $0 > 0 }, "\(key)")
            }
            let warm = try #require(size["warm"] as? [[String: Any]])
            #expect(
                warm.map { $0["strategy"] as? String }
                    == [StrategyID.contains, .containsN, .token, .prefix, .fts5].map(\.name))
            // token and prefix are meant to find the same entries: the benchmark's totals say whether they did.
            func totals(_ strategy: StrategyID) -> [Int?] {
                (warm.first { $0["strategy"] as? String == strategy.name }?["queries"] as? [[String: Any]] ?? []).map {
                    $0["total"] as? Int
                }
            }
            #expect(!totals(.token).isEmpty && totals(.token) == totals(.prefix))
            // FTS5's best setup answers the same queries, in the process and as sqlite3 processes.
            let best = try #require(size["fts5_best"] as? [String: Any])
            #expect((best["build_seconds"] as? Double ?? 0) > 0 && (best["bytes"] as? Int ?? 0) > 0)
            // The index alone: the file less the entries' text.
            let indexBytes = try #require(best["index_bytes"] as? Int)
            #expect(indexBytes > 0 && indexBytes < best["bytes"] as? Int ?? 0)
            let bestWarm = try #require(best["warm"] as? [[String: Any]])
            #expect(
                bestWarm.contains { $0["query"] as? String == "the" }
                    && bestWarm.allSatisfy { ($0["median_ms"] as? Double ?? 0) > 0 })
            #expect(
                (best["cold"] as? [[String: Any]] ?? []).count == bestWarm.count, "sqlite3 answers every query FTS5 can"
            )
            // The default strategy limited to a year and contains[n] to a month, each beside itself unlimited.
            let filtered = try #require(size["filtered"] as? [[String: Any]])
            #expect(filtered.map { $0["strategy"] as? String } == [StrategyID.prefix.name, StrategyID.containsN.name])
            #expect(filtered.map { ($0["limited_to"] as? String)?.count } == [4, 7], "a year, then a month")
            for row in filtered {
                #expect(
                    (row["passing"] as? Int ?? 0) > 0 && (row["passing"] as? Int ?? 0) < (size["entries"] as? Int ?? 0))
                #expect(!(row["queries"] as? [String] ?? []).isEmpty)
            }
            let cold = try #require(size["cold"] as? [[String: Any]])
            let the = try #require(cold.first { $0["query"] as? String == "the" })
            #expect((the["journal_ms"] as? Double ?? 0) > 0)
        }
        #expect(
            FileManager.default.fileExists(
                atPath: work.appendingPathComponent("journal-600-seed2013-\(SyntheticJournal.version).jsonl").path),
            "inputs kept for the next run")
        #expect(
            !FileManager.default.fileExists(atPath: work.appendingPathComponent("store-600").path), "stores removed")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<polyline"))

        for bad in [
            ["bench", "--sizes", "0"], ["bench", "--sizes", "ten"], ["bench", "--budget", "0"],
            ["bench", "--runs", "0"], ["bench", "-o", "/nonexistent-folder/report.md"],
            ["bench", "--html=/nonexistent-folder/report.html"], ["bench", "--output", work.path],
            ["compare", "-o", "/nonexistent-folder/report.md"],
        ] {
            let refused = try journal.run(bad, useStore: false)
            #expect(refused.status == 2, "\(bad): \(refused.error)")
            #expect(refused.error.split(separator: "\n").count == 1)
        }
    }

    /// A file of entries measured as it is: one size, its entries, the queries chosen from them,
    /// and the report saying what it measured; the file itself left in place.
    @Test func benchmarksACorpusOfItsOwn() throws {
        let journal = JournalProcess()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let generated = try journal.run(["generate", "--entries", "700", "--seed", "9"], useStore: false)
        let corpus = work.appendingPathComponent("corpus.jsonl")
        try Data(generated.output.utf8).write(to: corpus)
        let outcome = try journal.run(
            [
                "bench", "--corpus", corpus.path, "--strategies", "prefix,fts5", "--runs", "1", "--cold-runs", "1",
                "--budget", "5", "--work", work.path, "--discard-inputs", "--format=json", "-o", "-",
            ], useStore: false)
        #expect(outcome.status == 0, "\(outcome.error)")
        let report = try outcome.json()
        #expect(report["corpus"] as? String == corpus.path)
        let sizes = try #require(report["sizes"] as? [[String: Any]])
        #expect(sizes.map { $0["entries"] as? Int } == [700])
        #expect(FileManager.default.fileExists(atPath: corpus.path), "a corpus is never discarded")
        // A file the import refuses: the import's reason, not only that it failed.
        let malformed = work.appendingPathComponent("malformed.jsonl")
        try Data("{\"text\": \"fine\"}\nnot json\n".utf8).write(to: malformed)
        let refusedImport = try journal.run(
            ["bench", "--corpus", malformed.path, "--strategies", "prefix", "--work", work.path], useStore: false)
        #expect(refusedImport.status == 1)
        #expect(refusedImport.error.contains("line 2"), "\(refusedImport.error)")
        for bad in [
            ["bench", "--corpus", corpus.path, "--sizes", "10k"], ["bench", "--corpus", corpus.path, "--ten-million"],
            ["bench", "--corpus", work.appendingPathComponent("missing.jsonl").path], ["bench", "--corpus", "-"],
        ] {
            let refused = try journal.run(bad, useStore: false)
            #expect(refused.status == 2, "\(bad): \(refused.error)")
            #expect(refused.error.split(separator: "\n").count == 1)
        }
    }

    @Test func verifiesAndReindexes() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        let sample = JournalProcess.sampleCorpus
        #expect(try journal.run(["import", sample.path]).status == 0)
        let verified = try journal.run(["verify"])
        #expect(verified.status == 0, "\(verified.output)\(verified.error)")
        #expect(verified.output == "OK: 300 entries and everything derived from them agree\n")
        // A document lost from the search store: named, with what to do about it.
        let search = try DatabaseQueue(path: journal.store.appendingPathComponent("search.sqlite").path)
        try search.write { db in try db.execute(sql: "DELETE FROM document WHERE id = 7") }
        try search.close()
        let damaged = try journal.run(["verify"])
        #expect(damaged.status == 1)
        #expect(damaged.output.contains("p7"), "\(damaged.output)")
        #expect(damaged.error.contains("journal reindex"), "\(damaged.error)")
        let reindexed = try journal.run(["reindex"])
        #expect(reindexed.status == 0 && reindexed.output.hasPrefix("reindexed 300 entries in "), "\(reindexed.error)")
        let json = try journal.run(["verify", "--json"]).json()
        #expect(
            json["consistent"] as? Bool == true && json["entries"] as? Int == 300
                && (json["problems"] as? [Any])?.isEmpty == true)
        #expect(
            try journal.run(["search", "crème", "--json"]).json()["total"] as? Int
                == (try journal.run(["search", "creme", "--strategy", StrategyID.token.name, "--json"]).json()["total"]
                    as? Int))
    }
}
