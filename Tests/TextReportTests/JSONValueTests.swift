import Foundation
import Testing

@testable import TextReport

/// The command's JSON: keys in the order written, strings escaped as JSON requires, and read
/// back by a JSON parser into the same values.
@Suite struct JSONValueTests {
    @Test func stringsAreEscapedWhereJSONRequiresAndReadBackWhole() throws {
        let cases: [(String, String)] = [
            ("plain", #""plain""#),
            ("say \"hi\" \\ bye", #""say \"hi\" \\ bye""#),
            ("a\nb\rc\td", #""a\nb\rc\td""#),
            ("nul\u{0} bell\u{7} del\u{7F} esc\u{1B}", #""nul\u0000 bell\u0007 del\u007f esc\u001b""#),
            ("line\u{2028}paragraph\u{2029}end", #""line\u2028paragraph\u2029end""#),
            ("crème brûlée 東京 🎉 \u{2027}\u{202A}", "\"crème brûlée 東京 🎉 \u{2027}\u{202A}\""),
            ("", #""""#),
        ]
        for (text, expected) in cases {
            let serialized = JSONValue.object(["text": .string(text)]).serialized
            #expect(serialized == "{\"text\":\(expected)}", "\(text.debugDescription)")
            let parsed = try JSONSerialization.jsonObject(with: Data(serialized.utf8)) as? [String: String]
            #expect(parsed?["text"] == text, "\(text.debugDescription)")
        }
    }

    @Test func objectsKeepTheirKeysInTheOrderWritten() {
        let value = JSONValue.object([
            "z": .integer(1), "a": .array([.bool(true), .null, .number(0.5)]), "m": .fields([("k", .string("v"))]),
        ])
        #expect(value.serialized == #"{"z":1,"a":[true,null,0.5],"m":{"k":"v"}}"#)
    }
}
