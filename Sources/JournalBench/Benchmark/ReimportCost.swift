import Foundation
import JournalKit

/// Importing the same file again, which adds nothing: what it costs beside the import that
/// wrote the entries. The input is undated JSON Lines, whose entries a file gives one date (its
/// modification time): every line's duplicate check then looks at the same date, where a check
/// that read that date's entries for each line made the second import quadratic.
public struct ReimportCost: Sendable {
    /// Lines of the input.
    public let lines: Int
    /// `journal import FILE` into a new journal, as a separate process.
    public let importSeconds: Double
    /// The same command again, every entry left out as held already.
    public let reimportSeconds: Double

    /// The second import's time over the first's.
    public var ratio: Double { reimportSeconds / max(importSeconds, 1e-9) }

    /// The first `lines` texts of `input` (JSON Lines), without their dates, imported twice into
    /// a new journal in `scratch` by `executable`.
    public static func measure(input: URL, lines: Int, executable: String, scratch: URL) throws -> ReimportCost {
        let undated = scratch.appendingPathComponent("undated-\(lines).jsonl")
        let store = scratch.appendingPathComponent("reimport-\(lines)")
        try? FileManager.default.removeItem(at: store)
        defer {
            try? FileManager.default.removeItem(at: undated)
            try? FileManager.default.removeItem(at: store)
        }
        var written = 0
        var output = Data()
        let reader = try JSONLinesReader(path: input.path)
        while written < lines, let batch = try reader.nextBatch(targetBytes: 1 << 20, maxLines: lines - written) {
            for line in batch {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any],
                    let text = object["text"] as? String
                else { continue }
                output += try JSONSerialization.data(withJSONObject: ["text": text]) + Data("\n".utf8)
                written += 1
            }
        }
        try output.write(to: undated)
        let arguments = ["--store", store.path, "import", undated.path]
        let first = try ChildProcess.run(executable, arguments)
        let second = try ChildProcess.run(executable, arguments)
        guard first.status == 0, second.status == 0 else {
            throw JournalError(
                .store, "journal import of \(undated.path) failed (exit status \(first.status), \(second.status))")
        }
        return ReimportCost(lines: written, importSeconds: first.seconds, reimportSeconds: second.seconds)
    }
}
