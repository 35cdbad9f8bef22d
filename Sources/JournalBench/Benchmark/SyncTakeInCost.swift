import Foundation
import JournalKit

/// A new device taking a journal in through a sync folder, beside `journal import` of the same
/// entries into a new journal: the one way a second machine gets its entries, next to the
/// fastest way a journal gets them. A journal imports the entries and syncs once, writing its
/// files into a folder; then, round after round, `journal sync FOLDER` takes them into a new
/// journal (a fresh copy of the folder each time, so every round finds the same files) and
/// `journal import` writes them into another, each a separate process.
public struct SyncTakeInCost: Sendable {
    /// Entries taken in.
    public let entries: Int
    /// Bytes of the sending journal's files in the folder.
    public let folderBytes: Int
    /// Each round's `journal sync FOLDER` into a new journal.
    public let takeInSeconds: [Double]
    /// Each round's `journal import FILE` of the same entries into a new journal.
    public let importSeconds: [Double]

    /// The median take-in over the median import.
    public var ratio: Double { takeInMedian / max(importMedian, 1e-9) }

    /// The middle round's take-in.
    public var takeInMedian: Double { LatencySummary(takeInSeconds).median }
    /// The middle round's import.
    public var importMedian: Double { LatencySummary(importSeconds).median }

    /// Rounds of one take-in and one import each.
    static let rounds = 3

    /// The first `lines` lines of `input` (JSON Lines), imported and sent by one journal and
    /// taken in by new ones, in `scratch`, by `executable`.
    public static func measure(
        input: URL, lines: Int, executable: String, scratch: URL, progress: (String) -> Void = { _ in }
    ) throws -> SyncTakeInCost {
        let file = scratch.appendingPathComponent("sync-\(lines).jsonl")
        let sender = scratch.appendingPathComponent("sync-sender-\(lines)")
        let folder = scratch.appendingPathComponent("sync-folder-\(lines)")
        let (copy, receiver) = (
            folder.appendingPathExtension("copy"), scratch.appendingPathComponent("sync-new-\(lines)")
        )
        let imported = scratch.appendingPathComponent("sync-imported-\(lines)")
        let made = [file, sender, folder, copy, receiver, imported]
        for url in made { try? FileManager.default.removeItem(at: url) }
        defer { for url in made { try? FileManager.default.removeItem(at: url) } }

        var (written, output) = (0, Data())
        let reader = try JSONLinesReader(path: input.path)
        while written < lines, let batch = try reader.nextBatch(targetBytes: 1 << 20, maxLines: lines - written) {
            for line in batch {
                output += line.bytes + [0x0A]
                written += 1
            }
        }
        try output.write(to: file)
        progress("a journal of \(written) entries syncing into a folder…")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run(executable, scratch, ["--store", sender.path, "import", file.path])
        try run(executable, scratch, ["--store", sender.path, "sync", folder.path])
        let folderBytes = Self.bytes(under: folder)

        var (takeIn, importing): ([Double], [Double]) = ([], [])
        for round in 1...rounds {
            progress("a new device taking \(written) entries in, beside their import (round \(round) of \(rounds))…")
            for url in [copy, receiver, imported] { try? FileManager.default.removeItem(at: url) }
            try FileManager.default.copyItem(at: folder, to: copy)
            takeIn.append(try run(executable, scratch, ["--store", receiver.path, "sync", copy.path]))
            importing.append(try run(executable, scratch, ["--store", imported.path, "import", file.path]))
        }
        return SyncTakeInCost(
            entries: written, folderBytes: folderBytes, takeInSeconds: takeIn, importSeconds: importing)
    }

    /// Runs `journal` with `arguments`, its errors kept in `scratch` meanwhile; its seconds, or an error saying why it failed.
    @discardableResult
    private static func run(_ executable: String, _ scratch: URL, _ arguments: [String]) throws -> Double {
        try ChildProcess.journal(executable, arguments, errorFile: scratch.appendingPathComponent("sync.stderr"))
            .seconds
    }

    private static func bytes(under folder: URL) -> Int {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        return (files?.allObjects as? [URL] ?? []).reduce(0) { sum, url in
            sum + ((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }
}
