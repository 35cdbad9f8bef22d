import Foundation
import FuzzChecks
import Testing

/// Replays, through the fuzz targets' checks, every input fuzzing once failed on (kept in
/// `Fuzz/Regressions/<target>/`) and the sample corpus, whole and line by line.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(_ folder: String) -> [URL] {
        let directory = root.appendingPathComponent("Fuzz/Regressions/\(folder)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    static var sample: Data { (try? Data(contentsOf: root.appendingPathComponent("Corpora/sample.jsonl"))) ?? Data() }

    static func problems(_ data: Data, _ check: (UnsafeBufferPointer<UInt8>) -> [String]) -> [String] {
        data.withUnsafeBytes { check($0.bindMemory(to: UInt8.self)) }
    }

    @Test(arguments: inputs("text")) func textInputFuzzingFound(_ input: URL) throws {
        #expect(Self.problems(try Data(contentsOf: input), TextChecks.problems(in:)) == [])
    }

    @Test(arguments: inputs("jsonlines")) func jsonLinesInputFuzzingFound(_ input: URL) throws {
        #expect(Self.problems(try Data(contentsOf: input), JSONLinesChecks.problems(in:)) == [])
    }

    @Test func sampleCorpusPassesBothChecks() {
        let sample = Self.sample
        #expect(sample.count > 10_000)
        #expect(Self.problems(sample, JSONLinesChecks.problems(in:)) == [])
        for line in sample.split(separator: 0x0A) {
            #expect(Self.problems(Data(line), TextChecks.problems(in:)) == [])
        }
    }

    @Test func awkwardInputsPassBothChecks() {
        // Failing lines after a blank one must still name their own line numbers.
        #expect(Self.problems(Data("{\"text\": 1}\n\n{\"text\": \"ok\"}\n{".utf8), JSONLinesChecks.problems(in:)) == [])
        #expect(Self.problems(Data([0xFF, 0xC3, 0x28, 0x00]), TextChecks.problems(in:)) == [])
    }
}
