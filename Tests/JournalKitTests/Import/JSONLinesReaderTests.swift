import Foundation
import Testing

@testable import JournalKit

@Suite struct JSONLinesReaderTests {
    private func lines(of bytes: [UInt8]) throws -> [(Int, String)] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try JSONLinesReader(path: url.path)
        var result: [(Int, String)] = []
        while let batch = try reader.nextBatch(targetBytes: 10, maxLines: 2) {
            result += batch.map { ($0.number, String(decoding: $0.bytes, as: UTF8.self)) }
        }
        #expect(reader.bytesRead == bytes.count)
        return result
    }

    @Test func numbersLinesSkippingBlankOnesAndTakingCRLFAndABOM() throws {
        let text = "\u{FEFF}{\"a\":1}\r\n\n  \n{\"b\":2}\n{\"c\":3}"
        let read = try lines(of: Array(text.utf8))
        #expect(read.map(\.0) == [1, 4, 5])
        #expect(read.map(\.1) == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
    }

    @Test func readsLinesLongerThanItsReadBuffer() throws {
        let long = String(repeating: "x", count: 3 << 20)
        let read = try lines(of: Array("{\"text\":\"\(long)\"}\nend\n".utf8))
        #expect(read.count == 2)
        #expect(read[0].1.count == long.count + 11)
    }

    @Test func keepsInvalidUTF8ForTheParserToName() throws {
        let read = try lines(of: [0x7B, 0xFF, 0x7D, 0x0A])
        #expect(read.count == 1)
        let parsed = ImportLine.parse(NumberedLine(number: 1, bytes: [0x7B, 0xFF, 0x7D]), defaultDate: .now)
        #expect(throws: JournalError(.invalidInput, "line 1: invalid UTF-8", line: 1)) { try parsed.get() }
    }
}

@Suite struct ImportLineTests {
    private func parse(_ text: String) -> Result<NewEntry, JournalError> {
        ImportLine.parse(NumberedLine(number: 7, bytes: Array(text.utf8)), defaultDate: JournalDate(microseconds: 0))
    }

    @Test func readsTextAndDate() throws {
        let entry = try parse(#"{"date": "2024-05-01T08:30:00+02:00", "text": "a\u0000b", "mood": "ok"}"#).get()
        #expect(entry.text == "a\u{0}b")
        #expect(entry.date.iso8601 == "2024-05-01T06:30:00Z")
        #expect(try parse(#"{"text": "no date"}"#).get().date.microseconds == 0)
        #expect(try parse(#"{"text": "null date", "date": null}"#).get().date.microseconds == 0)
    }

    @Test(arguments: [
        (#"{"text": 5}"#, #"line 7: "text" must be a string"#),
        (#"{"body": "x"}"#, #"line 7: missing "text""#),
        (#"{"text": null}"#, #"line 7: "text" is null"#),
        (#"{"text": "x""#, "line 7: malformed JSON"),
        (#"["x"]"#, "line 7: expected a JSON object"),
        (
            #"{"text": "x", "date": "May 1st"}"#,
            #"line 7: bad date "May 1st" (expected ISO 8601, like 2024-05-01T08:30:00Z)"#
        ),
        (#"{"text": "x", "date": 1714552200}"#, #"line 7: "date" must be a string"#),
        (#"{"text": " \n "}"#, "line 7: the text is empty"),
        ("{\"text\": \"raw \u{0} NUL\"}", "line 7: malformed JSON"),
        (#"{"text": "x", "id": "p12"}"#, #"line 7: "id" "p12" is not an entry URI"#),
    ])
    func namesTheLineAndTheProblem(line: String, message: String) {
        #expect(throws: JournalError(.invalidInput, message, line: 7)) { try parse(line).get() }
    }
}
