import Foundation
import JournalKit

/// A synthetic journal written as JSON Lines that `journal import` reads: the input of
/// `journal generate` and of every size `journal bench` measures.
public enum SyntheticJournalFile {
    private struct Line: Encodable {
        let date: String
        let text: String
    }

    /// Writes `entries` entries of the journal seeded with `seed` to `sink`, a megabyte at a
    /// time; `progress` hears how many are written after each write.
    public static func write(
        entries: Int, seed: UInt64, to sink: FileHandle, progress: ((_ written: Int) -> Void)? = nil
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var buffer = Data()
        var written = 0
        for entry in SyntheticJournal(count: entries, seed: seed) {
            buffer += try encoder.encode(Line(date: entry.date.iso8601, text: entry.text))
            buffer.append(UInt8(ascii: "\n"))
            written += 1
            if buffer.count > 1 << 20 || written == entries {
                try sink.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
                progress?(written)
            }
        }
    }
}
