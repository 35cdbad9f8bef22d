import Foundation
import JournalKit

/// Writes a synthetic journal as JSON Lines, for `journal generate` and `journal bench`.
enum SyntheticJournalFile {
    static func write(entries: Int, seed: UInt64, to sink: FileHandle, progress: ProgressBar?) throws {
        var buffer = ""
        var written = 0
        for entry in SyntheticJournal(count: entries, seed: seed) {
            buffer += JSONValue.object(["date": .string(entry.date.iso8601), "text": .string(entry.text)]).serialized + "\n"
            written += 1
            if buffer.utf8.count > 1 << 20 || written == entries {
                try sink.write(contentsOf: Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
                progress?.update(done: written, total: entries)
            }
        }
        progress?.finish()
    }
}
