import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written whole beside its destination, then put in its place: a reader sees the old
/// file or the new one, never a mix, and so does the disk after a power cut.
///
/// Invariant: ``commit()`` syncs the new bytes, renames them over the destination and syncs
/// the folder before it returns, so a caller that reports success (or names the file in a
/// store) after it relies on nothing a power cut can take back. A file that is never committed
/// is removed.
///
/// A destination that is not a regular file (a device such as `/dev/null`, a FIFO, a terminal)
/// is not replaced: renaming over it would put a regular file in its place. What is written is
/// kept in memory and written to it, in order, by ``commit()``.
///
/// ```swift
/// let file = try ReplacementFile(replacing: URL(fileURLWithPath: "backup.jsonl"))
/// try file.write(Data("{\"text\": \"…\"}\n".utf8))
/// try file.commit()
/// ```
public final class ReplacementFile {
    /// Where the file goes once complete.
    public let url: URL
    /// Where it is written until then, in the same folder (a rename can't cross file systems).
    let temporaryURL: URL
    private var descriptor: Int32
    private var end = 0
    /// For a destination that is not a regular file, the bytes to write to it on commit.
    private var streamed: [UInt8]?

    /// A new, empty file to put at `url`, readable and writable by its owner only. It is written
    /// as `.NAME.partial-PID` beside `url`, or at `temporaryURL` (for a writer that holds a lock
    /// no other writer of the same file can). Whatever is at that name first (a file a process
    /// that died left, or a link someone placed) is removed, and the file is created new, never
    /// opened through a link.
    public init(replacing url: URL, temporaryURL: URL? = nil) throws(JournalError) {
        self.url = url
        self.temporaryURL =
            temporaryURL
            ?? url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            guard info.st_mode & S_IFMT != S_IFDIR else { throw .store("cannot write \(url.path): it is a folder") }
            streamed = []
            descriptor = Self.inMemory
            return
        }
        unlink(self.temporaryURL.path)
        descriptor = open(self.temporaryURL.path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(writing: url) }
    }

    /// The descriptor's value while the bytes are kept in memory (``streamed``).
    private static let inMemory: Int32 = Int32.max

    deinit { discard() }

    /// Appends `data`.
    public func write(_ data: Data) throws(JournalError) {
        try data.withUnsafeBytes { bytes in Result { () throws(JournalError) in try write(bytes, at: end) } }.get()
    }

    /// Writes `bytes` at `offset` (a header filled in last), extending the file as needed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(JournalError) {
        guard descriptor >= 0 else { throw .store("\(url.path) was already committed or discarded", file: url.path) }
        if streamed != nil {
            let needed = offset + bytes.count
            if streamed!.count < needed {
                streamed!.append(contentsOf: repeatElement(0, count: needed - streamed!.count))
            }
            streamed!.replaceSubrange(offset..<needed, with: bytes)
            end = max(end, needed)
            return
        }
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(writing: url)
            }
            written += count
        }
        end = max(end, offset + bytes.count)
    }

    /// Syncs the file, renames it over ``url`` and syncs the folder: when this returns, the new
    /// file is in place and survives a power cut.
    public func commit() throws(JournalError) {
        guard descriptor >= 0 else { throw .store("\(url.path) was already committed or discarded", file: url.path) }
        if let streamed {
            descriptor = -1
            try Self.writeInOrder(streamed, to: url)
            return
        }
        guard fsync(descriptor) == 0 else { throw Self.failure(writing: url) }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryURL.path, url.path) == 0 else {
            let failure = Self.failure(writing: url)
            unlink(temporaryURL.path)
            throw failure
        }
        try DurableFiles.syncFolder(url.deletingLastPathComponent())
    }

    /// Removes what was written; ``url`` is left as it was. Does nothing once committed.
    public func discard() {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        guard streamed == nil else { return }
        close(descriptor)
        unlink(temporaryURL.path)
    }

    /// Writes `bytes` to the file at `url`, which is not a regular one, from its start.
    private static func writeInOrder(_ bytes: [UInt8], to url: URL) throws(JournalError) {
        let output = open(url.path, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw failure(writing: url) }
        defer { close(output) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Foundation.write(output, $0.baseAddress! + written, bytes.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(writing: url)
            }
            written += count
        }
    }

    private static func failure(writing url: URL) -> JournalError {
        .store("cannot write \(url.path): \(String(cString: strerror(errno)))", file: url.path)
    }
}
