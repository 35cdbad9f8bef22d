import Foundation
import Testing

@testable import JournalKit

/// The query syntax of the word-prefix family, rule by rule, each answer worked out by hand.
@Suite struct QueryParserTests {
    /// Dates are read as of this instant, in UTC.
    static let now = Date(timeIntervalSince1970: 1_732_492_800)  // 2024-11-25T00:00:00Z
    static let utc = TimeZone(identifier: "UTC")!

    private func plan(_ text: String) throws -> QueryTerm {
        try SearchQuery(text, now: Self.now, timeZone: Self.utc).term()
    }

    private func problem(_ text: String) throws -> QuerySyntaxError? {
        guard case .failure(let problem) = try SearchQuery(text, now: Self.now, timeZone: Self.utc).parsed else {
            return nil
        }
        return problem
    }

    private static func day(_ text: String) -> JournalDate { JournalDate(iso8601: text + "T00:00:00Z")! }

    @Test(arguments: [
        // Words: each item's words, all required.
        ("new york", "(and new york)"),
        ("New-York", "(and new york)"),
        ("Crème BRÛLÉE", "(and creme brulee)"),
        ("Straße", "strasse"),
        ("東京タワーに行きました", "(and 東京タワー に 行き ま した)"),
        ("!!! café", "cafe"),
        // Phrases: the three double quotes, open at the end, one word, empty.
        ("\"new york\"", "\"new york\""),
        ("“New York”", "\"new york\""),
        ("\"new york”", "\"new york\""),
        ("\"new yo", "\"new yo\""),
        ("\"café\"", "cafe"),
        ("\"\" tokyo", "tokyo"),
        ("foo\"bar baz\"qux", "(and foo \"bar baz\" qux)"),
        ("\"東京タワーに行き\"", "\"東京タワー に 行き\""),
        ("\"ещё раз\"", "\"еще раз\""),
        // OR: joins the terms on its two sides; otherwise the word "or".
        ("tokyo OR kyoto", "(or tokyo kyoto)"),
        ("a OR b OR c", "(or a b c)"),
        ("a b OR c -d", "(and a (or b c) (not d))"),
        ("a OR b c OR d", "(and (or a b) (or c d))"),
        ("OR a", "(and or a)"),
        ("a OR", "(and a or)"),
        ("a OR OR b", "(and a or or b)"),
        ("a or b", "(and a or b)"),
        ("(OR a)", "(and or a)"),
        ("a OR (b c)", "(or a (and b c))"),
        ("a OR \"b c\"", "(or a \"b c\")"),
        ("!!! OR a", "(and or a)"),
        ("-a OR b", "(or (not a) b)"),
        // Leaving out.
        ("new -york", "(and new (not york))"),
        ("-\"new york\" tokyo", "(and (not \"new york\") tokyo)"),
        ("-(a OR b) c", "(and (not (or a b)) c)"),
        ("- a", "a"),
        ("--a", "a"),
        ("-!!! a", "a"),
        ("-() a", "a"),
        ("a-b", "(and a b)"),
        ("-OR", "(not or)"),
        ("-a", "(not a)"),
        // Groups.
        ("(a OR b) c", "(and (or a b) c)"),
        ("(a b", "(and a b)"),
        ("a) b", "(and a b)"),
        ("() a", "a"),
        ("((a))", "a"),
        ("(a (b OR c))", "(and a (or b c))"),
        // Tags.
        ("#travel", "#travel"),
        ("@Café", "#cafe"),
        ("#travel/japan!", "#travel/japan"),
        ("#idea-box-", "#idea-box"),
        ("#東京", "#東京"),
        ("#2024", "#2024"),
        ("#-/ tokyo", "tokyo"),
        ("x#y", "(and x y)"),
        ("-#work tokyo", "(and (not #work) tokyo)"),
        ("#travel OR #work", "(or #travel #work)"),
        // Escaping is quoting.
        ("\"OR\"", "or"),
        ("\"-v\"", "v"),
        ("\"#hashtag\"", "hashtag"),
        ("\"is:starred\"", "\"is starred\""),
        // Fields that are not fields.
        ("http://example.com", "(and http example.com)"),
        ("note:x", "(and note x)"),
    ])
    func readsTheSyntax(query: String, expected: String) throws {
        #expect(try plan(query).description == expected, "\(query)")
    }

    @Test func fieldsReadDatesAsTheFiltersDo() throws {
        #expect(try plan("is:starred") == .starred)
        #expect(try plan("is:Starred tokyo") == .all([.starred, .word("tokyo")]))
        #expect(try plan("from:2024-05") == .dated(from: Self.day("2024-05-01"), until: nil))
        #expect(try plan("to:2024-05") == .dated(from: nil, until: Self.day("2024-06-01")))
        #expect(try plan("on:2016") == .dated(from: Self.day("2016-01-01"), until: Self.day("2017-01-01")))
        #expect(try plan("on:\"last month\"") == .dated(from: Self.day("2024-10-01"), until: Self.day("2024-11-01")))
        #expect(try plan("from:“last month”") == .dated(from: Self.day("2024-10-01"), until: nil))
        #expect(
            try plan("-on:2016 york")
                == .all([.not(.dated(from: Self.day("2016-01-01"), until: Self.day("2017-01-01"))), .word("york")]))
        #expect(
            try plan("on:2016 OR is:starred")
                == .any([.dated(from: Self.day("2016-01-01"), until: Self.day("2017-01-01")), .starred]))
    }

    @Test func aBadFieldIsAUsageErrorSayingWhereItIs() throws {
        let date = try #require(try problem("tokyo from:someday"))
        #expect(date.message.hasPrefix("\"from:someday\": the date \"someday\" is not understood"))
        #expect(date.characters == 6..<18)
        let quoted = try #require(try problem("on:\"the day after\" x"))
        #expect(quoted.characters == 0..<18)
        let star = try #require(try problem("is:pinned"))
        #expect(star.message == "\"is:pinned\": is: knows only is:starred")
        #expect(star.characters == 0..<9)
        let empty = try #require(try problem("a to:"))
        #expect(empty.message.contains("needs a date"))
        #expect(empty.characters == 2..<5)
        expectError(.usage) { try plan("tokyo from:someday") }
    }

    @Test func aQueryWithNothingLeftIsAUsageError() throws {
        for query in ["!!!", "-", "()", "( )", "\"\"", "\"!!!\"", "-()", "#", "- ( )"] {
            let found = try #require(try problem(query), "\(query)")
            #expect(found.message.contains("has no words to search for"), "\(query)")
        }
    }

    @Test func theSubstringFamilyStillTakesTheQueryLiterally() throws {
        let query = try SearchQuery("  from:someday \"x ")
        #expect(query.text == "from:someday \"x")
        #expect(throws: Never.self) { try SearchStrategies[.containsCD].validate(query) }
        expectError(.usage) { try SearchStrategies[.prefix].validate(query) }
    }

    @Test func wantedTermsAreThoseNotLeftOut() throws {
        #expect(
            try plan("a \"b c\" -d -(e OR \"f g\") OR h --i").wanted.map(\.description) == ["a", "\"b c\"", "h", "i"])
    }

    /// Deep groups, long runs of `-`, quotes and `OR`: read without exhausting the stack.
    @Test func adversarialQueriesParse() throws {
        let deep = String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
        #expect(try plan(deep) == .word("a"))
        #expect(try plan(String(repeating: "-", count: 100_001) + "a") == .not(.word("a")))
        #expect(
            try plan(Array(repeating: "a OR", count: 20_000).joined(separator: " ") + " b").description.hasPrefix(
                "(or a a"))
        // Quotes pair up: 5,000 one-word phrases "a ", each followed by the word a.
        #expect(try plan(String(repeating: "\"a ", count: 10_000)) == .all(Array(repeating: .word("a"), count: 10_000)))
    }

    /// `on:this-day`: today's month and day (2024-11-25) in the query's time zone, its years
    /// left for the plan to bind to the journal's (``SearchPlanTests``); the journal's earliest
    /// entry is needed only for a query that asks for it.
    @Test func onThisDayIsTodaysDayLeftForThePlan() throws {
        let today = OnThisDay(JournalDate(Self.now), timeZone: Self.utc)
        #expect(try plan("on:this-day") == .onThisDay(today))
        #expect(try plan("walk -on:This-Day") == .all([.word("walk"), .not(.onThisDay(today))]))
        #expect(try problem("on:this-week")?.message.contains("on:this-week") == true)
        #expect(try SearchQuery("walk -on:this-day", now: Self.now, timeZone: Self.utc).asksOnThisDay)
        #expect(try !SearchQuery("walk on:2024 -#work", now: Self.now, timeZone: Self.utc).asksOnThisDay)
        #expect(try SearchQuery("walk", filter: EntryFilter(onThisDay: today)).asksOnThisDay)
    }
}
