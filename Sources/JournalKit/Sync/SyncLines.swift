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
        return Data(checksum(json) + [0x20]) + json + Data([0x0A])
    }

    /// The checksum a line writes before `json`: the first 16 bytes of its SHA-256, in
    /// lower-case hex.
    private static func checksum(_ json: some DataProtocol) -> [UInt8] {
        var hex: [UInt8] = []
        hex.reserveCapacity(32)
        for byte in SHA256.hash(data: json).prefix(16) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return hex
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// What a file's bytes hold: the whole values, in order, and how the bytes end.
    struct Reading<Value> {
        var values: [Value] = []
        /// How many whole lines were read (``values``'s count, unless they were handed over in
        /// runs), and their bytes.
        var count = 0
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
        let lines = WholeLines(data, sealedBy: sealing, device: device, file: file, decode: decode)
        let numbered = Array(lines.ranges.indices)
        let decoded =
            numbered.count < Self.shortFile
            ? lines.decode(numbered[...])
            : Array(numbered.parallelSlices(priority: ImportThread.lineWorker.priority) { lines.decode($0) }.joined())
        var reading = Reading<Value>(end: lines.end)
        var values: [Value] = []
        lines.take(decoded[...], into: &reading) { run, _ in values = run }
        reading.values = values
        return reading
    }

    /// Reads as ``read(_:sealedBy:device:file:decode:)`` does, handing the values over in runs
    /// as they are decoded: `take` gets each run on the calling thread, in order, while a
    /// thread of its own (``ImportThread/lineReader``) decodes the next, with the bytes of the
    /// lines handed over so far, so that a long file's lines are taken in as fast as the taker
    /// goes rather than after all are decoded. The reading returned holds no values. A throw
    /// from `take` stops the reading.
    static func read<Value: Sendable>(
        _ data: Data, sealedBy sealing: SyncSealing?, device: UUID, file: String,
        decode: @Sendable @escaping (Data, JSONDecoder) -> Value?,
        inRuns take: ([Value], _ bytes: Int) throws -> Void
    ) throws -> Reading<Value> {
        let lines = WholeLines(data, sealedBy: sealing, device: device, file: file, decode: decode)
        var reading = Reading<Value>(end: lines.end)
        let count = lines.ranges.count
        guard count >= Self.shortFile else {
            try lines.take(lines.decode(0..<count)[...], into: &reading, take)
            return reading
        }
        let runs = try HandOff<[Value?]>.start(priority: ImportThread.lineReader.priority) { runs in
            for start in stride(from: 0, to: count, by: Self.run) {
                guard runs.waitForRoom(), runs.put(lines.decode(start..<min(start + Self.run, count))) else { return }
            }
        }
        defer { runs.cancel() }
        while let run = runs.take() {
            guard try lines.take(run[...], into: &reading, take) else { break }
        }
        return reading
    }

    /// How many lines a file has at most to be read on the calling thread: fewer than threads
    /// started for them would pay for.
    private static let shortFile = 64

    /// How many lines are decoded at a time for a taker that takes them in runs.
    private static let run = 2_048

    /// A file's whole lines (each up to its newline), and how to decode them.
    private struct WholeLines<Value: Sendable>: Sendable {
        let data: Data
        let sealing: SyncSealing?
        let device: UUID
        let file: String
        let decodeJSON: @Sendable (Data, JSONDecoder) -> Value?
        /// Where each whole line is in `data`, without its newline.
        private(set) var ranges: [Range<Int>] = []
        /// ``Reading/End/cutShort`` when the last line has no newline yet.
        private(set) var end: Reading<Value>.End = .whole

        init(
            _ data: Data, sealedBy sealing: SyncSealing?, device: UUID, file: String,
            decode: @Sendable @escaping (Data, JSONDecoder) -> Value?
        ) {
            (self.data, self.sealing, self.device, self.file, decodeJSON) = (data, sealing, device, file, decode)
            var (ranges, end) = ([Range<Int>](), Reading<Value>.End.whole)
            data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
                var start = 0
                while start < all.count {
                    guard let found = memchr(all.baseAddress! + start, 0x0A, all.count - start) else {
                        end = .cutShort
                        return
                    }
                    let newline = all.baseAddress!.distance(to: UnsafeRawPointer(found))
                    ranges.append(start..<newline)
                    start = newline + 1
                }
            }
            (self.ranges, self.end) = (ranges, end)
        }

        /// The values of lines `indices` (from 0), nil for each line that doesn't check, open
        /// or decode.
        @Sendable func decode(_ indices: some Collection<Int>) -> [Value?] {
            let decoder = JSONDecoder()
            return data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
                indices.map { index -> Value? in
                    let bytes = UnsafeRawBufferPointer(rebasing: all[ranges[index]])
                    guard
                        let json = sealing.map({ $0.open(bytes, device: device, file: file, number: index + 1) })
                            ?? Self.checked(bytes)
                    else { return nil }
                    return decodeJSON(json, decoder)
                }
            }
        }

        /// Hands the values of the next lines, `decoded`, to `take` as far as they are whole, with
        /// the bytes of the lines read through them, and counts them into `reading`; false once
        /// a line is damaged (nothing after it is taken).
        @discardableResult
        func take(
            _ decoded: ArraySlice<Value?>, into reading: inout Reading<Value>, _ take: ([Value], Int) throws -> Void
        ) rethrows -> Bool {
            var values: [Value] = []
            values.reserveCapacity(decoded.count)
            for value in decoded {
                guard let value else { break }
                values.append(value)
            }
            if !values.isEmpty {
                let bytes = ranges[reading.count + values.count - 1].upperBound + 1
                try take(values, bytes)
                (reading.count, reading.bytes) = (reading.count + values.count, bytes)
            }
            guard values.count == decoded.count else {
                reading.end = .damaged(line: reading.count + 1)
                return false
            }
            return true
        }

        /// The JSON of a plain line, when its checksum matches.
        private static func checked(_ line: UnsafeRawBufferPointer) -> Data? {
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            let json = UnsafeRawBufferPointer(rebasing: line[(space + 1)...])
            return line[..<space].elementsEqual(checksum(json)) ? Data(json) : nil
        }
    }
}
