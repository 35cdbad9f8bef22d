import Foundation

/// One call the power-cut recorder logged (Tests/PowerCutRecorder): a change to a file or
/// folder under the recorded folder, in the order the calls took effect.
enum RecordedCall: Equatable {
    case open(descriptor: Int32, path: String, flags: Int32, existed: Bool, isFolder: Bool)
    case close(descriptor: Int32)
    case write(descriptor: Int32, offset: Int, bytes: [UInt8])
    case truncate(descriptor: Int32, size: Int)
    /// `fsync` or `fdatasync`; `printed`: the bytes of standard output written before it.
    case sync(descriptor: Int32, printed: Int)
    case rename(from: String, to: String)
    case unlink(path: String)
    case makeFolder(path: String)

    /// The calls of the log at `url`, as the recorder's header lays them out.
    static func read(_ url: URL) throws -> [RecordedCall] {
        let data = [UInt8](try Data(contentsOf: url))
        var calls: [RecordedCall] = []
        var offset = 0
        func integer<T: FixedWidthInteger>(_: T.Type) -> T {
            var value = T.zero
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: data[offset..<offset + MemoryLayout<T>.size]) }
            offset += MemoryLayout<T>.size
            return T(littleEndian: value)
        }
        while offset < data.count {
            guard data.count - offset >= 32 else { throw RecordError.cutShort }
            let kind = integer(UInt32.self)
            let descriptor = integer(Int32.self)
            let a = integer(Int64.self)
            let b = integer(Int64.self)
            let length = Int(integer(UInt32.self))
            let length2 = Int(integer(UInt32.self))
            guard data.count - offset >= length + length2 else { throw RecordError.cutShort }
            let first = Array(data[offset..<offset + length])
            let second = String(decoding: data[offset + length..<offset + length + length2], as: UTF8.self)
            offset += length + length2
            let path = String(decoding: first, as: UTF8.self)
            switch kind {
            case 1:
                calls.append(
                    .open(
                        descriptor: descriptor, path: path, flags: Int32(a), existed: b & 1 != 0, isFolder: b & 2 != 0))
            case 2: calls.append(.close(descriptor: descriptor))
            case 3: calls.append(.write(descriptor: descriptor, offset: Int(a), bytes: first))
            case 4: calls.append(.truncate(descriptor: descriptor, size: Int(a)))
            case 5: calls.append(.sync(descriptor: descriptor, printed: Int(a)))
            case 6: calls.append(.rename(from: path, to: second))
            case 7: calls.append(.unlink(path: path))
            case 8: calls.append(.makeFolder(path: path))
            default: throw RecordError.unknownKind(kind)
            }
        }
        return calls
    }

    enum RecordError: Error {
        case cutShort
        case unknownKind(UInt32)
    }
}
