import Foundation
import Testing

@testable import JournalKit

@Suite struct JrnlTextTests {
    /// A jrnl journal file as jrnl writes it (its two default time formats), with what jrnl's
    /// format allows around the entries: a star, blank lines, text in brackets, an empty entry.
    static let journal = """
        [2020-08-29 11:11] Entry the first.

        Lorem @ipsum dolor. @tagone and maybe also @tagtwo.

        [2020-09-24 09:14:00 PM] A second entry. *
        [1] a footnote, and
        [note] text in brackets
        [2021-01-05 08:00]
        [2021-01-05 08:00:30 AM] Winter\r
        \r
        Crème brûlée.\t

        """

    @Test(arguments: [
        ("Europe/Paris", ["2020-08-29T09:11:00Z", "2020-09-24T19:14:00Z", "2021-01-05T07:00:30Z"]),
        ("America/New_York", ["2020-08-29T15:11:00Z", "2020-09-25T01:14:00Z", "2021-01-05T13:00:30Z"]),
    ])
    func readsEntriesInTheLocalTimeZone(zone: String, dates: [String]) throws {
        let entries = try JrnlText.entries(in: Self.journal, timeZone: try #require(TimeZone(identifier: zone)))
        #expect(entries.count == 4)
        #expect(entries[2] == nil, "an entry with no text is left out")
        let read = entries.compactMap { $0 }
        #expect(read.map(\.entry.date) == dates.map { JournalDate(iso8601: $0)! })
        #expect(
            read.map(\.entry.text) == [
                "Entry the first.\n\nLorem @ipsum dolor. @tagone and maybe also @tagtwo.",
                "A second entry.\n[1] a footnote, and\n[note] text in brackets",
                "Winter\n\nCrème brûlée.",
            ])
        #expect(read.map(\.entry.starred) == [false, true, false])
        #expect(read.map { $0.sameDateAndText?.precision } == [60_000_000, 1_000_000, 1_000_000])
        #expect(read.map(\.location) == ["line 1", "line 5", "line 9"])
        #expect(
            read.allSatisfy { $0.entry.tags.isEmpty && $0.entry.origin == nil },
            "tags are in the text; jrnl has no identity")
    }

    @Test func refusesTextBeforeTheFirstEntry() {
        #expect(
            throws: JournalError(
                .invalidInput,
                "line 2: text before the first entry (an entry starts with a line like [2024-05-01 09:30] Title)",
                line: 2)
        ) {
            try JrnlText.entries(in: "\nnotes\n[2020-08-29 11:11] x")
        }
    }

    @Test(arguments: ["[2020-08-29 11:11] t", "[2020-08-29 11:11]", "[2020-08-29 9:30 pm] t", "[2020-08-29] t"])
    func startsAnEntry(line: String) {
        #expect(JrnlText.header(Substring(line), timeZone: .gmt) != nil)
    }

    @Test(arguments: [
        "[2020-08-29 11:11]x", "[1] note", "[today] t", "[2020-13-01 10:00] t", " [2020-08-29 11:11] t",
        "2020-08-29 11:11 t",
    ])
    func doesNotStartAnEntry(line: String) {
        #expect(JrnlText.header(Substring(line), timeZone: .gmt) == nil)
    }

    @Test(arguments: [
        ("Title\n\nBody, after a blank line.\n", "Title\nBody, after a blank line."),
        ("Went out. Had fun.", "Went out.\nHad fun."),
        ("Went out.\nHad fun.", "Went out.\nHad fun."),
        ("He said \"Stop.\" Then (really!) left.", "He said \"Stop.\"\nThen (really!) left."),
        ("東京タワーに行きました。雨でした", "東京タワーに行きました。\n雨でした"),
        ("Version 3.5 is out", "Version 3.5 is out"),
        ("  padded  \n\n  body  ", "padded\nbody"),
        ("One line, no end", "One line, no end"),
    ])
    func normalizesTextAsJrnlWritesIt(text: String, written: String) {
        #expect(JrnlText.normalized(text) == written)
        #expect(JrnlText.normalized(written) == written, "writing it again changes nothing")
    }
}
