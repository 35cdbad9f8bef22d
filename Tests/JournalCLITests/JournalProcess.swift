import Foundation
import Testing

/// Runs the built `journal` binary on a temporary store, as a user would.
struct JournalProcess {
    struct Outcome {
        let status: Int32
        let output: String
        let error: String

        /// The standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            try #require(try parsed() as? [String: Any], "not a JSON object: \(output)")
        }

        /// The standard output parsed as one JSON array of objects.
        func jsonArray() throws -> [[String: Any]] {
            try #require(try parsed() as? [[String: Any]], "not a JSON array of objects: \(output)")
        }

        /// The standard output parsed; when it is not JSON, the failure says how the process
        /// ended and what it wrote to standard error.
        private func parsed() throws -> Any {
            do {
                return try JSONSerialization.jsonObject(with: Data(output.utf8))
            } catch {
                Issue.record(
                    "standard output is not JSON (status \(status)): \(output.prefix(500))\nstandard error: \(self.error)"
                )
                throw error
            }
        }
    }

    let store: URL
    /// Variables every run has (an encrypted journal's passphrase file), beside those it is given.
    let environment: [String: String]

    init(
        store: URL = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cli-\(UUID().uuidString)"),
        environment: [String: String] = [:]
    ) {
        self.store = store
        self.environment = environment
    }

    /// A new encrypted journal (Argon2id's interactive cost), its passphrase in a file beside
    /// the folder that every run reads.
    static func encrypted() throws -> JournalProcess {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cli-\(UUID().uuidString)")
        let passphrase = store.appendingPathExtension("passphrase")
        try Data("an encrypted test journal\n".utf8).write(to: passphrase)
        let journal = JournalProcess(store: store, environment: ["JOURNAL_PASSPHRASE_FILE": passphrase.path])
        let created = try journal.run(
            ["init", "--encrypt", "--kdf", "interactive"], environment: ["JOURNAL_NEW_PASSPHRASE_FILE": passphrase.path]
        )
        #expect(created.status == 0, "\(created.error)")
        return journal
    }

    /// Removes the store and the input files written for it.
    func removeStore() {
        try? FileManager.default.removeItem(at: store)
        try? FileManager.default.removeItem(at: inputs)
        try? FileManager.default.removeItem(at: store.appendingPathExtension("passphrase"))
    }

    /// The folder of the input files written for this store, beside it.
    private var inputs: URL { store.appendingPathExtension("inputs") }

    /// The repository's sample corpus, `Corpora/sample.jsonl`.
    static let sampleCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpora/sample.jsonl")

    /// The `journal` executable built beside the test bundle.
    static let executable: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "journal")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent(".build/debug/journal")
    }()

    /// Runs `journal --store STORE ARGUMENTS…` with `input` on standard input, in
    /// `workingDirectory` when given. `launcher` runs journal through another program (`setpriv`
    /// to drop root, for a test of permissions).
    @discardableResult
    func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:], useStore: Bool = true,
        launcher: [String] = [],
        workingDirectory: URL? = nil
    ) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("journal-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try input.write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }

        let process = Process()
        let command = launcher + [Self.executable.path] + (useStore ? ["--store", store.path] : []) + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        var variables = ProcessInfo.processInfo.environment
        variables["JOURNAL_STORE"] = nil
        variables["JOURNAL"] = nil
        // No configuration file unless a test writes one: the user's own stays out of the tests.
        variables["XDG_CONFIG_HOME"] = scratch.path
        variables["NO_COLOR"] = nil
        variables["EDITOR"] = "false"
        variables["VISUAL"] = nil
        variables.merge(self.environment) { $1 }
        variables.merge(environment) { $1 }
        process.environment = variables
        let handles = try files.enumerated().map { index, url in
            index == 0 ? try FileHandle(forReadingFrom: url) : try FileHandle(forWritingTo: url)
        }
        process.standardInput = handles[0]
        process.standardOutput = handles[1]
        process.standardError = handles[2]
        try process.run()
        process.waitUntilExit()
        for handle in handles { try handle.close() }
        return Outcome(
            status: process.terminationStatus,
            output: String(decoding: try Self.contents(of: files[1]), as: UTF8.self),
            error: String(decoding: try Self.contents(of: files[2]), as: UTF8.self))
    }

    /// A file's bytes. Not `Data(contentsOf:)`, which on Linux leaks 4 KB for every empty file
    /// (swift-foundation's zero-size path), as AddressSanitizer reports.
    static func contents(of url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// Starts `journal --store STORE ARGUMENTS…` without waiting for it, its output discarded:
    /// for a test that kills it.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--store", store.path] + arguments
        let variables = self.environment.merging(environment) { $1 }
        if !variables.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Writes JSON Lines to an input file beside the store (removed with it) and returns its path.
    func file(_ lines: [String], name: String = UUID().uuidString) throws -> String {
        try file(bytes: Data(lines.joined(separator: "\n").utf8), name: name)
    }

    /// Writes `bytes` to an input file beside the store (removed with it) and returns its path.
    func file(bytes: Data, name: String = UUID().uuidString) throws -> String {
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let url = inputs.appendingPathComponent("\(name).jsonl")
        try bytes.write(to: url)
        return url.path
    }

    /// Everything a user can observe of the stores: every entry, and the counts and tokens.
    func fingerprint() throws -> String {
        let list = try run(["list", "--limit", "0", "--json"])
        let stats = try run(["stats", "--json"]).json()
        return list.output + "|\(stats["entries"]!)|\(stats["indexed_entries"]!)|\(stats["tokens"]!)"
    }
}
