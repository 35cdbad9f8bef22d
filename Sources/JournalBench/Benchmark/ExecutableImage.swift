import Foundation
import JournalKit

/// What the kernel and the dynamic loader do with an executable before its first instruction:
/// the bytes it maps, and the relocations the loader applies, read from the ELF file's program
/// headers and dynamic section (64-bit, little-endian: what this project builds on).
///
/// A relocation is a pointer the loader writes into a page of the mapped file, which copies the
/// page: a Swift binary holds one for nearly every pointer in its metadata. Packed relocations
/// (DT_RELR) describe many of them in one word, so their table is read quickly, but each still
/// writes its page.
public struct ExecutableImage: Sendable {
    /// The file's size.
    public let fileBytes: Int
    /// What its loadable segments bring from the file: the file but for what is never mapped
    /// (debugging information, the symbol table).
    public let loadedBytes: Int
    /// The relocations the loader applies when the process starts: relative ones and those that
    /// name a symbol, lazily bound calls included.
    public let relocations: Int
    /// The size of the tables that describe them.
    public let relocationTableBytes: Int

    /// The image of the ELF file at `path`.
    public init(path: String) throws(JournalError) {
        // Mapped, not read: only the headers and the tables are looked at.
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw JournalError(.invalidInput, "cannot read \(path)")
        }
        func word(_ offset: Int, _ size: Int) -> Int {
            guard offset >= 0, offset + size <= bytes.count else { return 0 }
            var value: UInt64 = 0
            for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            return Int(truncatingIfNeeded: value)
        }
        guard bytes.count > 64, bytes.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), bytes[4] == 2, bytes[5] == 1 else {
            throw JournalError(.invalidInput, "\(path) is not a 64-bit little-endian ELF file")
        }
        let headers = word(0x20, 8)
        let headerSize = word(0x36, 2)
        let headerCount = word(0x38, 2)
        var loads: [(fileOffset: Int, address: Int, size: Int)] = []
        var dynamic: (offset: Int, size: Int)?
        for index in 0..<headerCount {
            let header = headers + index * headerSize
            let (kind, offset, address, size) = (
                word(header, 4), word(header + 8, 8), word(header + 16, 8), word(header + 32, 8)
            )
            if kind == 1 { loads.append((offset, address, size)) }  // PT_LOAD
            if kind == 2 { dynamic = (offset, size) }  // PT_DYNAMIC
        }
        var entries: [Int: Int] = [:]
        if let dynamic {
            for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: 16) {
                let tag = word(entry, 8)
                if tag == 0 { break }
                entries[tag] = word(entry + 8, 8)
            }
        }
        func fileOffset(ofAddress address: Int) -> Int? {
            loads.first { $0.address <= address && address < $0.address + $0.size }.map {
                address - $0.address + $0.fileOffset
            }
        }
        // DT_RELASZ / DT_RELAENT, DT_PLTRELSZ (RELA entries of 24 bytes), DT_RELRSZ at DT_RELR.
        let relaBytes = entries[8] ?? 0
        let pltBytes = entries[2] ?? 0
        let relrBytes = entries[35] ?? 0
        var relocations = relaBytes / max(entries[9] ?? 24, 1) + pltBytes / 24
        if relrBytes > 0, let relr = entries[36].flatMap(fileOffset(ofAddress:)) {
            for entry in stride(from: relr, to: relr + relrBytes, by: 8) {
                let value = UInt64(truncatingIfNeeded: word(entry, 8))
                // An even word is an address (one relocation), an odd one a bitmap of the 63
                // words after the last.
                relocations += value & 1 == 0 ? 1 : (value >> 1).nonzeroBitCount
            }
        }
        fileBytes = bytes.count
        loadedBytes = loads.reduce(0) { $0 + $1.size }
        self.relocations = relocations
        relocationTableBytes = relaBytes + pltBytes + relrBytes
    }
}
