import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check of a plain store's write-ahead log before SQLite recovers it, for a store synced at
/// every commit (the main store).
///
/// SQLite reads a log whose header fails its checksum as empty, and a log as ending at its first
/// frame that fails its checksum: after a crash, that is a transaction cut short. But a header
/// or a frame damaged later (a byte changed on disk, a bad copy) drops every transaction after
/// it in silence, transactions that were synced and reported done, and the next write then
/// overwrites them. This check reads the log first, as SQLite would recover it, and throws when
/// SQLite would drop a transaction that a later one proves was synced: one committed after the
/// damage and followed by another frame of the same log. Nothing is then opened, and the log is
/// left as it is. (An encrypted store's log is checked as it is read, by the encrypting VFS.)
///
/// Only a log SQLite is about to recover is read: while another process has the store open, its
/// index of the log (`-shm`) is in use, and SQLite reads frames through it, not the header.
///
/// Not detected: damage to the log's last transaction (or to the frame that commits the one
/// before), which reads as a transaction cut short by a crash; the journal tells that loss when
/// its search store applied the transaction (``IndexStanding``).
enum WriteAheadLogCheck {
    /// Checks the log of the store at `store`; throws a ``JournalError/Kind/store`` error when it
    /// is damaged where SQLite's recovery would drop synced transactions.
    static func check(_ store: URL) throws(JournalError) {
        let path = store.path + "-wal"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 32, !indexIsInUse(store.path + "-shm") else { return }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == bytes.count, let pageSize = pageSize(of: store, header: bytes) else { return }
        if let damage = Log(bytes: bytes, pageSize: pageSize).damage {
            throw .store(
                "\(path) is damaged: \(damage), so SQLite would drop transactions that were committed; the journal was not opened, and nothing was changed. Keep a copy of the folder; moved aside, the log's transactions are lost",
                file: path)
        }
    }

    /// Whether a connection has the log's index at `path` open, in any process (SQLite's unix VFS
    /// holds a shared lock on its byte 128, "DMS", from opening the store to closing it). Asked
    /// as an open file description lock, which sees this process's locks too.
    private static func indexIsInUse(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var region = flock()
        region.l_type = Int16(F_WRLCK)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = 128
        region.l_len = 1
        guard fcntl(descriptor, openFileDescriptionGetLock, &region) == 0 else { return false }
        return region.l_type != Int16(F_UNLCK)
    }

    /// `F_OFD_GETLK` (Linux 3.15), which Swift's Glibc module leaves out.
    private static let openFileDescriptionGetLock: Int32 = 36

    /// The log's page size: its header's, when that is one the store's own header agrees with,
    /// else the store's (a damaged log header may not say it).
    private static func pageSize(of store: URL, header: [UInt8]) -> Int? {
        let descriptor = open(store.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var first = [UInt8](repeating: 0, count: 18)
        guard first.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 18, 0) }) == 18 else { return nil }
        let declared = Int(first[16]) << 8 | Int(first[17])
        let size = declared == 1 ? 65_536 : declared
        return size >= 512 && size.nonzeroBitCount == 1 ? size : nil
    }

    /// A log's bytes read as SQLite's recovery reads them.
    private struct Log {
        let bytes: [UInt8]
        let pageSize: Int
        var frameSize: Int { 24 + pageSize }
        var frameCount: Int { (bytes.count - 32) / frameSize }

        /// What is wrong, when SQLite's recovery would drop a transaction proven synced.
        var damage: String? {
            let magic = word(0, bigEndian: true)
            let headerIntact =
                (magic == 0x377F_0682 || magic == 0x377F_0683)
                && checksum(of: 0..<24, from: (0, 0), bigEndian: magic & 1 == 1) == (
                    word(24, bigEndian: true), word(28, bigEndian: true)
                )
            if !headerIntact {
                // The salts and the byte order can't be trusted: any transaction that the frames
                // alone prove committed would be dropped.
                for bigEndian in [true, false] where committedFrame(after: -1, bigEndian: bigEndian, salts: nil) != nil
                {
                    return "its header fails its checksum while it holds committed transactions"
                }
                return nil
            }
            let bigEndian = magic & 1 == 1
            let salts = (word(16, bigEndian: true), word(20, bigEndian: true))
            // The frames SQLite reads: from the header's checksum on, each carrying it on.
            var running = (word(24, bigEndian: true), word(28, bigEndian: true))
            var index = 0
            while index < frameCount, let next = frameChecksum(index, from: running, bigEndian: bigEndian),
                frameSalts(index) == salts, next == storedChecksum(index)
            {
                running = next
                index += 1
            }
            guard index < frameCount,
                let commit = committedFrame(after: index, bigEndian: bigEndian, salts: salts),
                standingFrame(after: commit, bigEndian: bigEndian, salts: salts) != nil
            else { return nil }
            return "frame \(index + 1) fails its checksum, and transactions committed after it follow"
        }

        /// The first frame after `index` that stands (``stands(_:bigEndian:salts:)``) and commits a
        /// transaction.
        private func committedFrame(after index: Int, bigEndian: Bool, salts: (UInt32, UInt32)?) -> Int? {
            var next = index
            while let found = standingFrame(after: next, bigEndian: bigEndian, salts: salts) {
                if word(frameStart(found) + 4, bigEndian: true) != 0 { return found }
                next = found
            }
            return nil
        }

        private func standingFrame(after index: Int, bigEndian: Bool, salts: (UInt32, UInt32)?) -> Int? {
            ((index + 1)..<max(index + 1, frameCount)).first { stands($0, bigEndian: bigEndian, salts: salts) }
        }

        /// Whether frame `index` was written whole as part of this log: its checksum holds from the
        /// one its predecessor stores (the header's, for the first), and its salts are its
        /// predecessor's (and `salts`, when known).
        private func stands(_ index: Int, bigEndian: Bool, salts: (UInt32, UInt32)?) -> Bool {
            guard word(frameStart(index), bigEndian: true) != 0 else { return false }
            let seed = index == 0 ? (word(24, bigEndian: true), word(28, bigEndian: true)) : storedChecksum(index - 1)
            if let salts, frameSalts(index) != salts { return false }
            if index > 0, frameSalts(index) != frameSalts(index - 1) { return false }
            guard let computed = frameChecksum(index, from: seed, bigEndian: bigEndian) else { return false }
            return computed == storedChecksum(index)
        }

        private func frameStart(_ index: Int) -> Int { 32 + index * frameSize }

        private func frameSalts(_ index: Int) -> (UInt32, UInt32) {
            (word(frameStart(index) + 8, bigEndian: true), word(frameStart(index) + 12, bigEndian: true))
        }

        private func storedChecksum(_ index: Int) -> (UInt32, UInt32) {
            (word(frameStart(index) + 16, bigEndian: true), word(frameStart(index) + 20, bigEndian: true))
        }

        /// SQLite's checksum of frame `index` (its header's first 8 bytes, then its page), carried
        /// on from `seed`.
        private func frameChecksum(_ index: Int, from seed: (UInt32, UInt32), bigEndian: Bool) -> (UInt32, UInt32)? {
            let start = frameStart(index)
            guard start + frameSize <= bytes.count else { return nil }
            let afterHeader = checksum(of: start..<(start + 8), from: seed, bigEndian: bigEndian)
            return checksum(of: (start + 24)..<(start + frameSize), from: afterHeader, bigEndian: bigEndian)
        }

        /// SQLite's log checksum (walChecksumBytes) of `range`, in 32-bit words of the given byte
        /// order, carried on from `seed`.
        private func checksum(of range: Range<Int>, from seed: (UInt32, UInt32), bigEndian: Bool) -> (UInt32, UInt32) {
            var (s0, s1) = seed
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                s0 = s0 &+ word(offset, bigEndian: bigEndian) &+ s1
                s1 = s1 &+ word(offset + 4, bigEndian: bigEndian) &+ s0
                offset += 8
            }
            return (s0, s1)
        }

        private func word(_ offset: Int, bigEndian: Bool) -> UInt32 {
            let (a, b, c, d) = (
                UInt32(bytes[offset]), UInt32(bytes[offset + 1]), UInt32(bytes[offset + 2]), UInt32(bytes[offset + 3])
            )
            return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
        }
    }
}
