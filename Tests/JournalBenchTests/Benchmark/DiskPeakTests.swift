import Foundation
import Testing

@testable import JournalBench

@Suite struct DiskPeakTests {
    private func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("disk-peak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func seesAFileThatCameAndWentWhileTheWorkRan() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(count: 1_000).write(to: folder.appendingPathComponent("kept"))
        let (result, peak) = try DiskPeak.during(folder) { () throws -> Int in
            let passing = folder.appendingPathComponent("passing")
            try Data(count: 3_000_000).write(to: passing)
            Thread.sleep(forTimeInterval: 0.2)
            try FileManager.default.removeItem(at: passing)
            return 7
        }
        #expect(result == 7)
        #expect(peak == 3_001_000)
    }

    @Test func workThatThrowsStopsTheSamplerAndThrowsOn() throws {
        struct Failure: Error {}
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: Failure.self) { try DiskPeak.during(folder) { throw Failure() } }
    }
}
