import Foundation
import Testing

/// Releasing journals is safe: `ReleaseStress` opens, uses (add, import, search, list) and
/// releases journals on eight threads at once, without `close()`, some released by another
/// thread than the one that used them, while a ninth prints large results; here it runs under
/// glibc's heap checking, which aborts on any corruption it finds. `scripts/stress` runs it
/// under valgrind.
@Suite struct ReleaseStressTests {
    static let executable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ReleaseStress")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/ReleaseStress")
    }()

    /// glibc's checking allocator, a separate library since glibc 2.34.
    static let mallocDebug = ["/lib/x86_64-linux-gnu/libc_malloc_debug.so.0", "/lib/aarch64-linux-gnu/libc_malloc_debug.so.0"]
        .first { FileManager.default.fileExists(atPath: $0) }

    @Test(.enabled(if: mallocDebug != nil, "needs glibc's libc_malloc_debug.so"))
    func releasingJournalsOnManyThreadsKeepsTheHeapIntact() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["150", "8", folder.path]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = Self.mallocDebug
        environment["GLIBC_TUNABLES"] = "glibc.malloc.check=3"
        environment["MALLOC_PERTURB_"] = "165"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus): \(printed)")
        #expect(process.terminationStatus == 0, "\(printed)")
        #expect(printed.hasPrefix("1200 operations, 0 failures"), "\(printed)")
    }
}
