import Foundation
import Testing

@testable import JournalKit

@Suite struct ImportLineScannerTests {
    private func decoded(_ line: String) -> ImportLine? {
        try? JSONDecoder().decode(ImportLine.self, from: Data(line.utf8))
    }

    @Test(arguments: [
        #"{"date": "2020-01-01T00:00:00Z", "text": "A \"critic\" is\n\ta man.\\ \/"}"#,
        ##"{"text":"caf\u00e9 \u00C9t\u00E9 \ud83d\ude00 \u0000 \b\f\r","tags":["@a","#b"],"tag_names":["a","b"]}"##,
        #"  { "id" : "x-journal://0/1" , "text" : "é ✓", "starred" : true , "origin" : "dayone:X" }  "#,
        #"{"text": "x", "starred": false, "tags": [], "date": null, "origin": null, "id": null}"#,
        #"{"text": "x", "starred": null, "tags": null, "tag_names": null}"#,
        "{\"text\":\"raw tab\u{7F} and DEL\",\"tags\":[ \"a\" , \"b\" ]}",
    ])
    func readsLinesAsJSONDecoderDoes(line: String) throws {
        let scanned = try #require(ImportLineScanner.scan(Array(line.utf8)))
        #expect(scanned == decoded(line))
    }

    @Test(arguments: [
        #"{"text": "x", "starred": 1}"#,
        #"{"text": "x", "mood": "ok"}"#,
        #"{"text": "x", "text": "y"}"#,
        #"{"te\u0078t": "x"}"#,
        #"{"text": "\ud83d x"}"#,
        #"{"text": "\ude00"}"#,
        #"{"text": "\ud83d\u0041"}"#,
        "{\"text\": \"raw \u{1} control\"}",
        #"{"text": "x"} trailing"#,
        #"{"text": "x",}"#,
        #"{"date": "2020-01-01T00:00:00Z"}"#,
        #"{"text": null}"#,
        #"{"text": "x", "tags": ["a", null]}"#,
        #"{"text": "x", "tag_names": {"a": 1}}"#,
        "\u{FEFF}{\"text\": \"x\"}",
        #"{"text": "\x"}"#,
        #"{"text": "\u12"}"#,
        #"["x"]"#,
        "",
    ])
    func leavesToJSONDecoderWhatItIsNotSureOf(line: String) {
        #expect(ImportLineScanner.scan(Array(line.utf8)) == nil)
    }

    @Test func leavesInvalidUTF8ToJSONDecoder() {
        #expect(ImportLineScanner.scan(Array(#"{"text": "a"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) == nil)
        #expect(ImportLineScanner.scan(Array(#"{"text": "a"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)) == nil)
    }

    /// Lines put together from pieces, some cut or with a byte changed: wherever the scanner
    /// reads one, `JSONDecoder` reads the same from it.
    @Test func agreesWithJSONDecoderOnGeneratedLines() throws {
        let keys = [#""text""#, #""date""#, #""id""#, #""origin""#, #""tags""#, #""tag_names""#, #""starred""#]
        let values = [
            #""plain""#, #""a\nb\t\"c\"""#, #""\u00e9\u0301""#, #""\ud83d\ude00""#, #""\ud83d""#, "null", "true",
            "false", "1", #"["x", "\u0041"]"#, "[]", #"[1]"#, #""é 漢字""#, #""\/\\""#, #"{"a": "b"}"#,
        ]
        var random = SystemRandomNumberGenerator()
        var scannedCount = 0
        for _ in 0..<3_000 {
            var fields = [#""text": "\#(["x", "a\\u0000b", "\\ud83d\\ude00"].randomElement(using: &random)!)""#]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                fields.append("\(keys.randomElement(using: &random)!): \(values.randomElement(using: &random)!)")
            }
            fields.shuffle(using: &random)
            var bytes = Array("{\(fields.joined(separator: Bool.random(using: &random) ? "," : " , "))}".utf8)
            if Int.random(in: 0..<4, using: &random) == 0 {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let scanned = ImportLineScanner.scan(bytes) else { continue }
            scannedCount += 1
            let decoded = try? JSONDecoder().decode(ImportLine.self, from: Data(bytes))
            #expect(scanned == decoded, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(scannedCount > 300)
    }
}
