import Foundation
import Testing

/// Releasing journals is safe: `ReleaseStress` opens, uses (add, import, search, list) and
/// releases journals on eight threads at once, without `close()`, some released by another
/// thread than the one that used them, while a ninth prints large results. It runs under glibc's
/// own allocator with `MALLOC_PERTURB_` (whose free-list checks at every thread's exit caught
/// the heap corruption of a journal released while its indexing thread was ending: 1 run in 3
/// before the fix), and under glibc's checking allocator. `scripts/stress` runs it under
/// valgrind.
@Suite struct ReleaseStressTests {
    static let executable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "ReleaseStress")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/debug/ReleaseStress")
    }()

    /// glibc's checking allocator, a separate library since glibc 2.34.
    static let mallocDebug = [
        "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0", "/lib/aarch64-linux-gnu/libc_malloc_debug.so.0",
    ]
    .first { FileManager.default.fileExists(atPath: $0) }

    /// The allocators to run under, each with the environment that turns its checks on, and
    /// iterations per thread (the checking allocator is about four times slower).
    static let allocators: [(name: String, environment: [String: String], iterations: Int)] =
        [("glibc malloc", ["MALLOC_PERTURB_": "165"], 250)]
        + (mallocDebug.map {
            [
                (
                    "glibc checking malloc",
                    ["LD_PRELOAD": $0, "GLIBC_TUNABLES": "glibc.malloc.check=3", "MALLOC_PERTURB_": "165"], 60
                )
            ]
        } ?? [])

    @Test(arguments: allocators.map(\.name))
    func releasingJournalsOnManyThreadsKeepsTheHeapIntact(allocator: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = Self.executable
        let setting = try #require(Self.allocators.first { $0.name == allocator })
        process.arguments = ["\(setting.iterations)", "8", folder.path]
        process.environment = ProcessInfo.processInfo.environment.merging(setting.environment, uniquingKeysWith: { $1 })
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            process.terminationReason == .exit,
            "killed by signal \(process.terminationStatus): \(printed.prefix(2_000))")
        #expect(process.terminationStatus == 0, "\(printed.prefix(2_000))")
        #expect(printed.hasPrefix("\(setting.iterations * 8) operations, 0 failures"), "\(printed.prefix(2_000))")
    }
}
