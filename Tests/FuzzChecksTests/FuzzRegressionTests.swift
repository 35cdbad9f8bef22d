import Foundation
import FuzzChecks
import Testing

/// Replays, through the fuzz targets' checks, the seed inputs the fuzzers start from
/// (`Fuzz/Seeds/<target>/`), every input fuzzing once failed on (`Fuzz/Regressions/<target>/`),
/// and the sample corpus, whole and line by line.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files of `Fuzz/<kind>/<target>`; a folder that is missing or unreadable fails the
    /// test rather than replaying nothing.
    static func inputs(_ kind: String, _ target: String) throws -> [URL] {
        let directory = root.appendingPathComponent("Fuzz/\(kind)/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: ["text", "jsonlines", "documents", "queries", "pages"]) func seedsAndRegressionsAreThere(
        _ target: String
    ) throws {
        #expect(try Self.inputs("Seeds", target).count >= 5, "the fuzzer's seeds for \(target) are missing")
        _ = try Self.inputs("Regressions", target)
    }

    static var sample: Data { (try? Data(contentsOf: root.appendingPathComponent("Corpora/sample.jsonl"))) ?? Data() }

    static func problems(_ data: Data, _ check: (UnsafeBufferPointer<UInt8>) -> [String]) -> [String] {
        data.withUnsafeBytes { check($0.bindMemory(to: UInt8.self)) }
    }

    @Test func textSeedsAndRegressionsPassTheTextChecks() throws {
        for input in try Self.inputs("Seeds", "text") + Self.inputs("Regressions", "text") {
            #expect(
                Self.problems(try Data(contentsOf: input), TextChecks.problems(in:)) == [], "\(input.lastPathComponent)"
            )
        }
    }

    @Test func jsonLinesSeedsAndRegressionsPassTheReaderChecks() throws {
        for input in try Self.inputs("Seeds", "jsonlines") + Self.inputs("Regressions", "jsonlines") {
            #expect(
                Self.problems(try Data(contentsOf: input), JSONLinesChecks.problems(in:)) == [],
                "\(input.lastPathComponent)")
        }
    }

    @Test func documentSeedsAndRegressionsPassTheImportChecks() throws {
        for input in try Self.inputs("Seeds", "documents") + Self.inputs("Regressions", "documents") {
            #expect(
                Self.problems(try Data(contentsOf: input), ImportDocumentChecks.problems(in:)) == [],
                "\(input.lastPathComponent)")
        }
    }

    @Test func querySeedsAndRegressionsPassTheQueryChecks() throws {
        for input in try Self.inputs("Seeds", "queries") + Self.inputs("Regressions", "queries") {
            #expect(
                Self.problems(try Data(contentsOf: input), QueryChecks.problems(in:)) == [],
                "\(input.lastPathComponent)")
        }
        for line in Self.sample.split(separator: 0x0A).prefix(200) {
            #expect(Self.problems(Data(line), QueryChecks.problems(in:)) == [])
        }
    }

    @Test func pageSeedsAndRegressionsPassTheEncryptedPageChecks() throws {
        for input in try Self.inputs("Seeds", "pages") + Self.inputs("Regressions", "pages") {
            #expect(
                Self.problems(try Data(contentsOf: input), EncryptedPageChecks.problems(in:)) == [],
                "\(input.lastPathComponent)")
        }
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
