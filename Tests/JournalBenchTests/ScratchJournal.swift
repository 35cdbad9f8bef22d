import Foundation
import JournalKit

/// A journal in a new temporary folder, closed and removed when the test is done with it: all
/// the measurement tests need (the library's own tests keep a richer helper that also checks
/// the stores' consistency).
final class ScratchJournal {
    let directory: StoreDirectory
    let journal: Journal

    init() throws {
        directory = StoreDirectory(
            FileManager.default.temporaryDirectory.appendingPathComponent("journal-bench-test-\(UUID().uuidString)"))
        journal = try Journal(directory: directory)
    }

    deinit {
        try? journal.close()
        try? FileManager.default.removeItem(at: directory.url)
    }
}
