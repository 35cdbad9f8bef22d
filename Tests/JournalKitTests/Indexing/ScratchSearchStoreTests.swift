import Foundation
import Testing

@testable import JournalKit

/// The scratch search store `journal compare` builds in the temporary folder: removed after the
/// build, and one a killed build left (no process holds its lock) removed by the next build,
/// while one a build under way holds is left alone.
@Suite struct ScratchSearchStoreTests {
    @Test func aScratchFolderLeftByAKilledBuildIsRemovedByTheNext() throws {
        let journal = try TemporaryJournal(passphrase: "scratch")
        try journal.journal.add(NewEntry(text: "an entry to index"))
        let temporary = FileManager.default.temporaryDirectory
        let left = temporary.appendingPathComponent("journal-rebuild-\(UUID().uuidString)")
        let held = temporary.appendingPathComponent("journal-rebuild-\(UUID().uuidString)")
        for folder in [left, held] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data("ciphertext".utf8).write(to: folder.appendingPathComponent("search.sqlite"))
        }
        defer { try? FileManager.default.removeItem(at: held) }
        let descriptor = open(held.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX) == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("journal-rebuild-")
        }
        try SearchStore.buildScratchCopy(of: journal.journal.main, like: journal.journal.search)
        let after = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
            $0.hasPrefix("journal-rebuild-")
        }
        #expect(before.contains(left.lastPathComponent) && !after.contains(left.lastPathComponent))
        #expect(after.contains(held.lastPathComponent))
        #expect(Set(after).isSubset(of: Set(before)), "the build removed its own folder")
    }
}
