import Foundation
import ZIPFoundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `.zip` Day One exports: one JSON file per journal (`Journal.json`, `Travel.json`) beside
/// the folders of its photos and other media, which stay behind (the entries keep their
/// references as text). ZIPFoundation reads the archive's directory and inflates the journals.
package enum DayOneArchive {
    /// A zip archive starts with a local file header's signature.
    package static func isArchive(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// The entries of every journal in the archive at `url`, journal by journal in the
    /// archive's order.
    package static func entries(at url: URL) throws(JournalError) -> [ImportedEntry?] {
        try entries(in: opened { try Archive(url: url, accessMode: .read) }, at: url)
    }

    /// The entries of every journal in the archive `data` (read from standard input). It is
    /// read from a file, as ZIPFoundation's archives in memory leak their buffer when the data
    /// is not a zip archive (0.9.20): a file in memory (`/dev/shm`), whose name is removed as
    /// soon as it is open, so that nothing of a journal being imported, perhaps into an
    /// encrypted one, reaches a disk; it is read through the process's descriptor for it.
    package static func entries(in data: Data) throws(JournalError) -> [ImportedEntry?] {
        var template = Array("/dev/shm/journal-import-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw .invalidInput(
                "cannot hold the archive from standard input in memory (/dev/shm: \(String(cString: strerror(errno)))): give its file instead"
            )
        }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written else {
            throw .invalidInput(
                "cannot hold the archive from standard input in memory: \(String(cString: strerror(errno)))")
        }
        return try entries(at: URL(fileURLWithPath: "/proc/self/fd/\(descriptor)"))
    }

    private static func opened(_ open: () throws -> Archive) throws(JournalError) -> Archive {
        do {
            return try open()
        } catch {
            throw .invalidInput("not a readable zip archive (\(error))")
        }
    }

    private static func entries(in archive: Archive, at url: URL) throws(JournalError) -> [ImportedEntry?] {
        let journals = archive.filter { item in
            let parts = item.path.split(separator: "/")
            return item.type == .file && item.path.lowercased().hasSuffix(".json") && parts.count == 1
                && !item.path.hasPrefix(".")
        }
        guard !journals.isEmpty else {
            throw .invalidInput("the archive holds no Day One journal (a .json file at its top, like Journal.json)")
        }
        var entries: [ImportedEntry?] = []
        for journal in journals {
            entries += try DayOneJSON.entries(in: contents(of: journal, in: url), name: journal.path)
        }
        return entries
    }

    /// The bytes of `item` of the archive at `url`, decompressed by ZIPFoundation from its
    /// stored bytes and checked against its CRC-32.
    ///
    /// Not through `Archive.extract`: ZIPFoundation (0.9.20) reads a deflated entry until its
    /// stream ends, past the entry and forever at the end of the file, so a damaged entry would
    /// hang the import; and it tells zlib that a short last chunk is a whole one, so zlib may
    /// read past it. Here the stream gets the entry's own bytes, in whole chunks, and no more:
    /// the entry's local header is found by its signature and name, its bytes read by the size
    /// the central directory gives.
    private static func contents(of item: ZIPFoundation.Entry, in url: URL) throws(JournalError) -> Data {
        func damaged(_ why: String) -> JournalError {
            .invalidInput("\(item.path): cannot be read from the archive (\(why))")
        }
        guard let file = FileHandle(forReadingAtPath: url.path) else { throw damaged("the archive cannot be opened") }
        defer { try? file.close() }
        guard let (method, stored) = storedBytes(of: item, in: file) else {
            throw damaged("its local header is missing")
        }
        guard item.uncompressedSize <= UInt64(JSONLinesReader.maximumDocumentBytes) else {
            throw damaged("it is larger than \(JSONLinesReader.maximumDocumentBytes) bytes")
        }
        var contents = Data()
        let checksum: CRC32
        switch method {
        case CompressionMethod.none.rawValue:
            contents = stored
            checksum = stored.crc32(checksum: 0)
        case CompressionMethod.deflate.rawValue:
            do {
                checksum = try Data.decompress(
                    size: Int64(stored.count), bufferSize: 1 << 16, skipCRC32: false,
                    provider: { position, size in
                        // Always `size` bytes: ZIPFoundation tells zlib a chunk holds that many
                        // whatever it holds, so a short last chunk is padded with zeros (which a
                        // stream that has not ended reads as a damaged block).
                        guard position < stored.count else { throw CocoaError(.fileReadCorruptFile) }
                        let start = stored.startIndex + Int(position)
                        var chunk = Data(stored[start..<min(start + size, stored.endIndex)])
                        if chunk.count < size { chunk.append(Data(count: size - chunk.count)) }
                        return chunk
                    },
                    consumer: { chunk in
                        contents.append(chunk)
                        if contents.count > Int(item.uncompressedSize) { throw CocoaError(.fileReadCorruptFile) }
                    })
            } catch {
                throw damaged("its compressed bytes are damaged")
            }
        default:
            throw damaged("it is compressed with method \(method), which is not supported")
        }
        guard checksum == item.checksum, contents.count == Int(item.uncompressedSize) else {
            throw damaged("its checksum does not match")
        }
        return contents
    }

    /// The compression method and stored bytes of `item`: after the first local header, found
    /// by its signature, that names it.
    private static func storedBytes(of item: ZIPFoundation.Entry, in file: FileHandle) -> (UInt16, Data)? {
        let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        let name = Data(item.path.utf8)
        func read(_ count: Int, at offset: UInt64) -> Data? {
            guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count),
                data.count == count
            else {
                return nil
            }
            return data
        }
        func little(_ data: Data, _ at: Int) -> Int {
            Int(data[data.startIndex + at]) | Int(data[data.startIndex + at + 1]) << 8
        }
        var offset: UInt64 = 0
        let chunkSize = 1 << 20
        while let chunk = read(chunkSize, at: offset)
            ?? (try? file.seek(toOffset: offset)).flatMap({ try? file.readToEnd() }),
            chunk.count >= signature.count
        {
            var searchStart = chunk.startIndex
            while let hit = chunk[searchStart...].firstRange(of: signature) {
                let headerOffset = offset + UInt64(hit.lowerBound - chunk.startIndex)
                searchStart = hit.upperBound
                guard let header = read(30, at: headerOffset) else { continue }
                let nameLength = little(header, 26), extraLength = little(header, 28)
                guard nameLength == name.count, read(nameLength, at: headerOffset + 30) == name else { continue }
                let dataOffset = headerOffset + 30 + UInt64(nameLength + extraLength)
                guard item.compressedSize <= UInt64(Int.max),
                    let stored = read(Int(item.compressedSize), at: dataOffset)
                else {
                    return nil
                }
                return (UInt16(little(header, 8)), stored)
            }
            guard chunk.count == chunkSize else { return nil }
            offset += UInt64(chunkSize - signature.count + 1)
        }
        return nil
    }
}
