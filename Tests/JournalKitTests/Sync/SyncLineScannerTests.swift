import Foundation
import JournalText
import Testing

@testable import JournalKit

@Suite struct SyncLineScannerTests {
    private static let entry = "x-journal://55158B15-15E5-463D-990B-B70814FB7A27/Entry/p42"
    private static let version = "000001764500000000.00000.7D4704EF-E1C9-4ECC-884F-464DB070E620"
    private static let earlier = "000001764400000000.00003.7D4704EF-E1C9-4ECC-884F-464DB070E620"
    private static let other = "000001764400000000.00000.2438BE97-E414-449E-BB93-1AFD19714F7C"

    private func scanned(_ line: String) -> SyncLine? {
        Array(line.utf8).withUnsafeBufferPointer { SyncLineScanner.scan($0) }
    }

    private func decoded(_ line: String) -> SyncLine? {
        try? JSONDecoder().decode(SyncLine.self, from: Data(line.utf8))
    }

    /// A line as a device writes it (``SyncLines``): sorted keys, slashes unescaped.
    private func written(_ line: SyncLine) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }

    private static let lines: [SyncLine] = [
        .record(
            SyncRecord(
                entry: entry, version: version, base: nil,
                state: SyncedState(
                    date: 1_420_103_400_000_000, text: "Ich habe zwar keine Lösung.\n\t\t-- \"P\"", tags: [],
                    starred: false))),
        .record(
            SyncRecord(
                entry: entry, version: version, base: earlier, merged: [other],
                state: SyncedState(
                    date: -86_400_000_000, text: "café 😀 \u{0} \u{1F} a/b \\ #Tag @x",
                    tags: [Tag(name: "zeta", written: "Zeta"), Tag(name: "cafe", written: "Café")], starred: true))),
        .record(SyncRecord(entry: entry, version: version, base: earlier, state: nil)),
        .floor(SyncFloor(entry: entry, through: [earlier, other])),
    ]

    @Test(arguments: lines)
    func readsWhatDevicesWriteAsJSONDecoderDoes(line: SyncLine) throws {
        let text = try written(line)
        let read = try #require(scanned(text))
        #expect(read == decoded(text))
        #expect(read == line)
    }

    @Test(arguments: [
        #"{"entry":"e","version":"v","state":{"date":1,"starred":false,"tags":[],"text":"t"},"mood":1}"#,
        #"{"entry":"e","version":"v","version":"w"}"#,
        #"{"entry":"e","version":"v","state":{"date":1.5,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":1e3,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":01,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":-0,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":9223372036854775808,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":"1","starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":null,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":1,"starred":false,"tags":[],"text":null}}"#,
        #"{"entry":"e","version":"v","state":{"date":1,"starred":false,"tags":[{"name":"a"}],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":1,"starred":false,"tags":null,"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":1,"date":2,"starred":false,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","version":"v","state":{"date":1,"starred":0,"tags":[],"text":"t"}}"#,
        #"{"entry":"e","through":["v"],"version":"v"}"#,
        #"{"entry":"e","through":null}"#,
        #"{"entry":null,"version":"v"}"#,
        #"{"version":"v"}"#,
        #"{"entry":"e"}"#,
        #"{"entr\u0079":"e","version":"v"}"#,
        #"{"entry":"e","version":"v"} x"#,
        #"{"entry":"e","version":"v",}"#,
        #"{"entry":"\ud83d","version":"v"}"#,
        #"["e"]"#,
        "",
    ])
    func leavesToJSONDecoderWhatItIsNotSureOf(line: String) {
        #expect(scanned(line) == nil)
    }

    @Test func readsIntegersAtTheEndsOfTheirRange() throws {
        for date in [Int64.min, Int64.max, 0, -1] {
            let line = #"{"entry":"e","version":"v","state":{"date":\#(date),"starred":true,"tags":[],"text":"t"}}"#
            let read = try #require(scanned(line))
            #expect(read == decoded(line))
            #expect(read.record?.state?.date == date)
        }
    }

    /// Lines as devices write them, with a byte changed, cut, or with white space: wherever the
    /// scanner reads one, `JSONDecoder` reads the same from it.
    @Test func agreesWithJSONDecoderOnChangedLines() throws {
        var random = SystemRandomNumberGenerator()
        var scannedCount = 0
        for _ in 0..<3_000 {
            var bytes = Array(try written(Self.lines.randomElement(using: &random)!).utf8)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 2: bytes.insert(contentsOf: Array(" \n\t".utf8).shuffled(using: &random).prefix(1), at: bytes.count)
            default: break
            }
            guard let scanned = bytes.withUnsafeBufferPointer({ SyncLineScanner.scan($0) }) else { continue }
            scannedCount += 1
            let decoded = try? JSONDecoder().decode(SyncLine.self, from: Data(bytes))
            #expect(scanned == decoded, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(scannedCount > 1_000)
    }
}
