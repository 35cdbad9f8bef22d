import Foundation
import Testing

@testable import JournalBench
@testable import JournalKit

/// Three journals change at random and sync at random, each through a folder of its own that a
/// simulated sync tool fills from the others' late, in part, cut short or twice, removals
/// (compaction's) late or not yet; once every file has reached every folder, all three hold the
/// same entries, every entry no journal deleted is there, a few rounds of syncs more leave every
/// entry one version on every journal, and a journal that joins holds the same from what
/// compaction left.
@Suite(.hangGuard) struct SyncPropertyTests {
    /// A sync tool's delivery: `from`'s own files into `to`'s folder, some of them in order (the
    /// last perhaps cut short), and what it took in; and some of the files it removed, removed.
    private static func carry(
        _ device: UUID, from source: URL, to target: URL, whole: Bool, using generator: inout SplitMix64
    ) throws {
        let folder = "journal-sync/\(device.uuidString)"
        func files(in root: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { SyncFolder.File(name: $0) != nil || $0 == "taken.jsonl" }.sorted()
        }
        let names = files(in: source)
        for gone in Set(files(in: target)).subtracting(names) where whole || Bool.random(using: &generator) {
            try FileManager.default.removeItem(at: target.appendingPathComponent("\(folder)/\(gone)"))
        }
        guard !names.isEmpty else { return }
        let count = whole ? names.count : Int.random(in: 0...names.count, using: &generator)
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent(folder), withIntermediateDirectories: true)
        for (index, name) in names.prefix(count).enumerated() {
            var bytes = try Data(contentsOf: source.appendingPathComponent("\(folder)/\(name)"))
            if !whole, index == count - 1, bytes.count > 1, Bool.random(using: &generator) {
                bytes = bytes.prefix(Int.random(in: 1..<bytes.count, using: &generator))
            }
            try bytes.write(to: target.appendingPathComponent("\(folder)/\(name)"))
        }
    }

    @Test(arguments: Array(1...24) as [UInt64])
    func journalsThatTookInTheSameFilesHoldTheSameEntries(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let journals = try (0..<3).map { _ in try TemporaryJournal() }
        let folders = try (0..<3).map { _ in try SyncTests.TemporaryFolder() }
        var devices: [UUID?] = [nil, nil, nil]
        var added = 0
        var deletedWords: Set<String> = []
        var compacted = 0
        for _ in 0..<160 {
            let i = Int.random(in: 0..<3, using: &generator)
            let journal = journals[i].journal!
            let entries = try journal.list(PageRequest(limit: 0)).entries
            let entry = entries.randomElement(using: &generator)
            var operation = Int.random(in: 0..<10, using: &generator)
            // Odd seeds add few entries and edit them often, so that compaction has versions to remove.
            if seed % 2 == 1, operation < 2, entries.count >= 3, Int.random(in: 0..<4, using: &generator) != 0 {
                operation = 2
            }
            switch operation {
            case 0, 1:
                added += 1
                try journal.add(NewEntry(text: "w\(added) written on \(i)"))
            case 2 where entry != nil:
                // Edits of the same line overlap; a line added at the top and one at the end don't.
                let text =
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: entry!.text + " and edited on \(i)"
                    case 1: "a line on top by \(i)\n" + entry!.text
                    default: entry!.text + "\na line at the end by \(i)"
                    }
                try journal.edit(entry!.id, text: text)
            case 3 where entry != nil:
                for number in 1...max(added, 1) where entry!.text.contains("w\(number) written") {
                    deletedWords.insert("w\(number)")
                }
                try journal.delete(entry!.id)
            case 4 where entry != nil:
                try journal.setStarred(!entry!.starred, for: entry!.id)
            case 5 where entry != nil:
                try journal.addTags(["t\(Int.random(in: 0..<3, using: &generator))"], to: entry!.id)
            case 6, 7:
                let report = try journal.sync(through: folders[i].url)
                devices[i] = report.device
                compacted += report.compacted
            default:
                let j = Int.random(in: 0..<3, using: &generator)
                if let device = devices[i], j != i {
                    try Self.carry(device, from: folders[i].url, to: folders[j].url, whole: false, using: &generator)
                }
            }
        }
        // Every file reaches every folder, whole; each journal syncs twice around. Before, in
        // odd seeds, one entry is drafted on the three journals in turn, each draft carried whole,
        // so that compaction removes what they have all passed and writes snapshots.
        let drafts = seed % 2 == 1 ? 24 : 0
        for round in 0..<(drafts + 2) {
            if round < drafts, let entry = try journals[round % 3].journal.list(PageRequest(limit: 0)).entries.first {
                try journals[round % 3].journal.edit(entry.id, text: entry.text + "\ndraft \(round)")
            }
            for i in 0..<3 {
                let report = try journals[i].journal.sync(through: folders[i].url)
                devices[i] = report.device
                compacted += report.compacted
            }
            for i in 0..<3 {
                for j in 0..<3 where j != i {
                    try Self.carry(
                        devices[i]!, from: folders[i].url, to: folders[j].url, whole: true, using: &generator)
                }
            }
        }
        for i in 0..<3 { _ = try journals[i].journal.sync() }
        let held = try journals.map { try SyncTests.held($0.journal) }
        // With nothing more changed, a few rounds more compact every entry to its one version
        // on every journal: merged heads, losing heads and conflict copies included.
        for _ in 0..<4 {
            for i in 0..<3 { _ = try journals[i].journal.sync() }
            for i in 0..<3 {
                for j in 0..<3 where j != i {
                    try Self.carry(
                        devices[i]!, from: folders[i].url, to: folders[j].url, whole: true, using: &generator)
                }
            }
        }
        for journal in journals {
            let kept = try journal.journal.main.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT hex(store) || ' ' || number FROM sync_version GROUP BY store, number HAVING count(*) > 1"
                )
            }
            #expect(kept.isEmpty, "seed \(seed): entries kept with more than one version: \(kept)")
            #expect(try SyncTests.held(journal.journal) == held[0], "seed \(seed)")
        }
        #expect(drafts == 0 || compacted > 0, "seed \(seed): nothing was compacted")
        #expect(held[0] == held[1], "seed \(seed)")
        #expect(held[0] == held[2], "seed \(seed)")
        for number in 1...max(added, 1) where !deletedWords.contains("w\(number)") && added > 0 {
            #expect(held[0].contains { $0.text.contains("w\(number) written") }, "seed \(seed): w\(number) was lost")
        }
        for journal in journals { try journal.expectConsistent() }
        // A journal that joins starts from what compaction left in the folder, and holds the same.
        let newcomer = try TemporaryJournal()
        _ = try newcomer.journal.sync(through: folders[0].url)
        let newcomerHeld = try SyncTests.held(newcomer.journal)
        #expect(
            newcomerHeld == held[0],
            "seed \(seed): only the newcomer holds \(Set(newcomerHeld).subtracting(held[0])), only the others \(Set(held[0]).subtracting(newcomerHeld))"
        )
    }
}
