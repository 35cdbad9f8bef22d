import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// What must hold for the JSON Lines reader, the line scanners (an import's and a sync folder's)
/// and the line parser on any input, as the fuzz target and its regression tests check it: each
/// broken rule is one line in the answer.
package enum JSONLinesChecks {
    package static func problems(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        // One input file per process: tests that check inputs in parallel take turns with it.
        InputFile.lock.lock()
        defer { InputFile.lock.unlock() }
        var problems: [String] = []
        guard let file = InputFile(bytes) else { return ["cannot write the input to a temporary file"] }
        let reader = JSONLinesReader(fileDescriptor: file.descriptor, closeWhenDone: false)
        let now = JournalDate.now
        var lastNumber = 0
        do {
            // Small batches, so that lines cross batch boundaries as they do in large files.
            while let batch = try reader.nextBatch(targetBytes: 64, maxLines: 3) {
                for line in batch {
                    if line.number <= lastNumber {
                        problems.append("line \(line.number) came after line \(lastNumber)")
                    }
                    lastNumber = line.number
                    if line.bytes.contains(0x0A) { problems.append("line \(line.number) holds a newline") }
                    problems += checkParse(line, now: now)
                    problems += checkScan(line)
                    problems += checkSyncScan(line)
                }
            }
            if reader.bytesRead != bytes.count { problems.append("read \(reader.bytesRead) of \(bytes.count) bytes") }
        } catch {
            problems.append("the reader failed on a small input: \(error.message)")
        }
        return problems
    }

    /// A line parses to a valid entry, which written out as JSON reads back the same, or it
    /// fails with a message naming the line.
    private static func checkParse(_ line: NumberedLine, now: JournalDate) -> [String] {
        switch ImportLine.parse(line, defaultDate: now) {
        case .failure(let error):
            return error.message.hasPrefix("line \(line.number): ")
                ? [] : ["an error that does not name its line: \(error.message)"]
        case .success(let entry):
            var problems: [String] = []
            do { try NewEntry.validate(text: entry.text) } catch {
                problems.append("an invalid entry was accepted: \(error.message)")
            }
            guard let json = try? JSONEncoder().encode(["date": entry.date.iso8601, "text": entry.text]) else {
                return problems + ["an accepted text cannot be written as JSON"]
            }
            switch ImportLine.parse(NumberedLine(number: line.number, bytes: Array(json)), defaultDate: now) {
            case .success(let again) where again == entry: break
            case .success(let again): problems.append("written out and read back: \(again) instead of \(entry)")
            case .failure(let error): problems.append("written out, it no longer reads: \(error.message)")
            }
            return problems
        }
    }

    /// Where the scanner reads a line, Foundation's `JSONDecoder` reads the same fields from it.
    private static func checkScan(_ line: NumberedLine) -> [String] {
        guard let scanned = ImportLineScanner.scan(line.bytes) else { return [] }
        guard let decoded = try? JSONDecoder().decode(ImportLine.self, from: Data(line.bytes)) else {
            return ["line \(line.number): scanned as \(scanned), which JSONDecoder refuses"]
        }
        return decoded == scanned ? [] : ["line \(line.number): scanned as \(scanned), decoded as \(decoded)"]
    }

    /// Where the sync line scanner reads a line, Foundation's `JSONDecoder` reads the same line.
    private static func checkSyncScan(_ line: NumberedLine) -> [String] {
        guard let scanned = line.bytes.withUnsafeBufferPointer({ SyncLineScanner.scan($0) }) else { return [] }
        guard let decoded = try? JSONDecoder().decode(SyncLine.self, from: Data(line.bytes)) else {
            return ["line \(line.number): scanned as the sync line \(scanned), which JSONDecoder refuses"]
        }
        return decoded == scanned
            ? [] : ["line \(line.number): scanned as the sync line \(scanned), decoded as \(decoded)"]
    }

    /// The input as a file (the reader takes a descriptor), one per process, rewritten per input
    /// while holding `lock`.
    private final class InputFile {
        static let lock = NSLock()
        nonisolated(unsafe) private static var shared: Int32 = -1
        let descriptor: Int32

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            if Self.shared < 0 {
                var template = Array("/tmp/journal-fuzz-XXXXXX".utf8CString)
                Self.shared = mkstemp(&template)
                guard Self.shared >= 0 else { return nil }
                unlink(&template)
            }
            descriptor = Self.shared
            guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
            if let base = bytes.baseAddress, bytes.count > 0, write(descriptor, base, bytes.count) != bytes.count {
                return nil
            }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
        }
    }
}
