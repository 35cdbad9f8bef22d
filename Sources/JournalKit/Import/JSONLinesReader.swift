import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of a JSON Lines input, with its 1-based number for error messages.
package struct NumberedLine: Sendable {
    package let number: Int
    package let bytes: [UInt8]

    package init(number: Int, bytes: [UInt8]) {
        self.number = number
        self.bytes = bytes
    }
}

/// Reads JSON Lines from a file or standard input in batches, without holding the whole
/// input in memory. Blank lines are skipped; `\r\n` endings and a leading UTF-8 byte order
/// mark are accepted.
public final class JSONLinesReader {
    /// A line longer than this is refused rather than read into memory.
    public static let maximumLineBytes = 2 * NewEntry.maximumTextBytes

    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// The input's size when it is a regular file, for progress.
    public let totalBytes: Int?
    /// The date of its undated lines: the file's modification time, or the import's for a pipe.
    package let undatedEntries: UndatedEntryDate
    /// Bytes of the lines read so far.
    public var bytesRead: Int { consumed }
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    private var lineNumber = 0
    private var atEnd = false
    /// Bytes of the lines taken so far, and their digest.
    private var consumed = 0
    private var consumedDigest = SHA256()
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)

    /// Reads the file at `path`, or standard input when `path` is `-`.
    public convenience init(path: String) throws(JournalError) {
        if path == "-" {
            self.init(fileDescriptor: STDIN_FILENO, closeWhenDone: false)
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .invalidInput("cannot read \(path): \(String(cString: strerror(errno)))", file: path)
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .invalidInput("cannot read \(path): it is a directory", file: path)
        }
        self.init(fileDescriptor: descriptor, closeWhenDone: true)
    }

    /// Reads the open file `fileDescriptor` (standard input, say), closing it when done
    /// when `closeWhenDone`.
    public init(fileDescriptor: Int32, closeWhenDone: Bool) {
        descriptor = fileDescriptor
        closesDescriptor = closeWhenDone
        var status = stat()
        if fstat(fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            totalBytes = Int(status.st_size)
            undatedEntries = .modified(status.st_mtim)
        } else {
            totalBytes = nil
            undatedEntries = .atImport()
        }
    }

    deinit {
        chunk.deallocate()
        if closesDescriptor { close(descriptor) }
    }

    /// The next lines, about `targetBytes` of them (at least one line), or nil at the end.
    package func nextBatch(targetBytes: Int, maxLines: Int) throws(JournalError) -> [NumberedLine]? {
        var lines: [NumberedLine] = []
        var size = 0
        while lines.count < maxLines, size < targetBytes, let line = try nextLine() {
            size += line.bytes.count
            lines.append(line)
        }
        return lines.isEmpty ? nil : lines
    }

    /// Where the lines taken so far end: their bytes, their number and their digest.
    package var position: ImportPosition {
        ImportPosition(offset: consumed, line: lineNumber, digest: InputDigest.hex(consumedDigest.finalize()))
    }

    /// Reads through `position`'s offset: true when the input up to there is the one `position`
    /// describes (the same bytes, ending at the end of a line), the next line then the one
    /// after it; false otherwise, the reader then no longer of use.
    package func skip(to position: ImportPosition) throws(JournalError) -> Bool {
        while consumed < position.offset {
            guard try nextLine() != nil else { return false }
        }
        return self.position == position
    }

    /// The first bytes of what is left to read, up to `count` (fewer at the end), without
    /// consuming them: enough to tell the input's format.
    package func peek(_ count: Int) throws(JournalError) -> ArraySlice<UInt8> {
        while buffer.count - bufferStart < count, !atEnd { try fill() }
        return buffer[bufferStart..<min(buffer.count, bufferStart + count)]
    }

    /// A document read whole (jrnl's and Day One's formats are one JSON value or one text) may
    /// be at most this many bytes.
    public static let maximumDocumentBytes = 2 << 30

    /// Everything left to read, at most ``maximumDocumentBytes``, without consuming it: lines
    /// read afterwards start where they would have.
    package func peekAll() throws(JournalError) -> Data {
        while !atEnd {
            guard buffer.count - bufferStart <= Self.maximumDocumentBytes else {
                throw .invalidInput(
                    "the input is larger than \(Self.maximumDocumentBytes) bytes, the most a document may be")
            }
            try fill()
        }
        return Data(buffer[bufferStart...])
    }

    private func nextLine() throws(JournalError) -> NumberedLine? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: 0x0A) {
                let line = take(upTo: newline, consumingNewline: true)
                if let line { return line }
                continue
            }
            if atEnd {
                guard bufferStart < buffer.count else { return nil }
                if let line = take(upTo: buffer.count, consumingNewline: false) { return line }
                continue
            }
            guard buffer.count - bufferStart <= Self.maximumLineBytes else {
                throw JournalError.invalidInput("longer than \(Self.maximumLineBytes) bytes").onLine(lineNumber + 1)
            }
            try fill()
        }
    }

    /// The line ending at `end`, or nil for a blank line (which still counts as a line).
    private func take(upTo end: Int, consumingNewline: Bool) -> NumberedLine? {
        lineNumber += 1
        var slice = buffer[bufferStart..<end]
        let next = consumingNewline ? end + 1 : end
        buffer[bufferStart..<next].withUnsafeBytes { consumedDigest.update(bufferPointer: $0) }
        consumed += next - bufferStart
        bufferStart = next
        if slice.last == 0x0D { slice = slice.dropLast() }
        if lineNumber == 1, slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        guard slice.contains(where: { !Self.isJSONWhiteSpace($0) }) else { return nil }
        return NumberedLine(number: lineNumber, bytes: Array(slice))
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func fill() throws(JournalError) {
        if bufferStart > 0 {
            buffer.removeFirst(bufferStart)
            bufferStart = 0
        }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count > 0 {
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
                return
            }
            if count == 0 {
                atEnd = true
                return
            }
            if errno != EINTR { throw .invalidInput("cannot read the input: \(String(cString: strerror(errno)))") }
        }
    }
}
