import Crypto
import Foundation

/// How a device's files hold their lines (``SyncFolder``): one value each, as JSON,
/// checksummed, or sealed for an encrypted journal (``SyncSealing``).
///
/// Invariant: a line is taken only whole (up to its newline) and only when it checks or opens
/// and holds what a device would write; reading stops at the first line that doesn't.
enum SyncLines {
    /// Line `number` (from 1) of `device`'s file `file` (``SyncFolder/File/sealedName``): a
    /// checksum of the value's JSON, a space, the JSON, a newline; or, sealed (an encrypted
    /// journal's), the JSON sealed and a newline. The checksum tells a line damaged in the
    /// folder from a whole one; a line without its newline is one still arriving.
    static func line(
        _ value: some Encodable, sealedBy sealing: SyncSealing?, device: UUID, file: String, number: Int
    ) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(value)) ?? Data()
        if let sealing { return sealing.seal(json, device: device, file: file, line: number) + Data([0x0A]) }
        return Data((checksum(json) + " ").utf8) + json + Data([0x0A])
    }

    private static func checksum(_ json: some DataProtocol) -> String {
        SHA256.hash(data: json).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// What a file's bytes hold: the whole values, in order, and how the bytes end.
    struct Reading<Value> {
        var values: [Value] = []
        /// The bytes of the whole lines read.
        var bytes = 0
        var end: End = .whole
        enum End: Equatable {
            /// Every line was whole.
            case whole
            /// The last line has no newline yet: the file is still arriving, or was cut short.
            case cutShort
            /// Line `line` (from 1) is damaged: nothing from it on is taken.
            case damaged(line: Int)
        }
    }

    /// Reads `device`'s file `file`, up to its last whole line or its first one that is damaged
    /// or that `decode` refuses; the lines of a long file are opened and decoded on every core
    /// (``ImportThread/lineWorker``), those of a short one here.
    static func read<Value: Sendable>(
        _ data: Data, sealedBy sealing: SyncSealing?, device: UUID, file: String,
        decode: @Sendable @escaping (Data, JSONDecoder) -> Value?
    ) -> Reading<Value> {
        var reading = Reading<Value>()
        // The whole lines, each up to its newline.
        var lines: [Range<Int>] = []
        data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            var start = 0
            while start < all.count {
                guard let found = memchr(all.baseAddress! + start, 0x0A, all.count - start) else {
                    reading.end = .cutShort
                    return
                }
                let newline = all.baseAddress!.distance(to: UnsafeRawPointer(found))
                lines.append(start..<newline)
                start = newline + 1
            }
        }
        let numbered = Array(lines.enumerated())
        let decodeSlice = { @Sendable (slice: ArraySlice<(offset: Int, element: Range<Int>)>) -> [Value?] in
            let decoder = JSONDecoder()
            return slice.map { (index, range) -> Value? in
                data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
                    let bytes = UnsafeRawBufferPointer(rebasing: all[range])
                    guard
                        let json = sealing.map({ $0.open(bytes, device: device, file: file, number: index + 1) })
                            ?? checked(bytes)
                    else { return nil }
                    return decode(json, decoder)
                }
            }
        }
        let decoded =
            numbered.count < Self.shortFile
            ? decodeSlice(numbered[...])
            : Array(numbered.parallelSlices(priority: ImportThread.lineWorker.priority, decodeSlice).joined())
        for (index, value) in decoded.enumerated() {
            guard let value else {
                reading.end = .damaged(line: index + 1)
                return reading
            }
            reading.values.append(value)
            reading.bytes = lines[index].upperBound + 1
        }
        return reading
    }

    /// How many lines a file has at most to be read on the calling thread: fewer than threads
    /// started for them would pay for.
    private static let shortFile = 64

    /// The JSON of a plain line, when its checksum matches.
    private static func checked(_ line: UnsafeRawBufferPointer) -> Data? {
        guard let space = line.firstIndex(of: 0x20) else { return nil }
        let json = UnsafeRawBufferPointer(rebasing: line[(space + 1)...])
        return String(decoding: line[..<space], as: UTF8.self) == checksum(json) ? Data(json) : nil
    }
}
