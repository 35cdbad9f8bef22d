import ArgumentParser
import Foundation
import JournalKit
import TextReport

/// Where a command's output goes: a file written whole, or standard output, which `-` names
/// as it does for every POSIX tool (`-o -`).
enum OutputDestination: ExpressibleByArgument, Equatable {
    case standardOutput
    case file(String)

    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self = argument == "-" ? .standardOutput : .file(argument)
    }

    /// The file's path; nil for standard output.
    var path: String? {
        if case .file(let path) = self { path } else { nil }
    }

    /// Refuses, before a long run, a file that could not be written at its end: one whose
    /// folder is missing or not writable, or a folder itself.
    func checkWritable(option: String) throws {
        guard let path else { return }
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError("\(option): \(path) is a folder, not a file")
        }
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(option): there is no folder \(folder) to write \(url.lastPathComponent) in")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw ValidationError("\(option): the folder \(folder) is not writable")
        }
    }

    /// Standard output, or the plain-text stand-in that gives a file no colour.
    var terminal: Terminal { path == nil ? .standardOutput : .plain }

    /// Writes `text` and a line break: to standard output, or as a whole file that replaces
    /// any file at the path only once complete and synced.
    func write(_ text: String) throws {
        guard let path else {
            print(text)
            return
        }
        let file = try ReplacementFile(replacing: URL(fileURLWithPath: path))
        try file.write(Data((text + "\n").utf8))
        try file.commit()
    }
}

/// `-o FILE`, for the commands that write a file or a report: standard output when absent or `-`.
struct OutputFileOptions: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output"), .customLong("out")],
        help: ArgumentHelp(
            "Write to FILE (whole, or not at all) instead of standard output; - is standard output.", valueName: "FILE")
    )
    var file: OutputDestination?

    /// Where the output goes.
    var destination: OutputDestination { file ?? .standardOutput }
}

/// `--format`: how a report is written.
extension ReportFormat: ExpressibleByArgument {}

/// `journal export --format`.
extension ExportFormat: ExpressibleByArgument {}
