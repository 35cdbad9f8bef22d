/// A JSON value whose objects keep their keys in the order written: Foundation's encoder on
/// Linux does not, and the command's JSON is read by people as well as programs.
package enum JSONValue {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object(KeyValuePairs<String, JSONValue>)
    /// An object whose keys are known only at run time, in the order given.
    case fields([(String, JSONValue)])

    /// Compact JSON text on one line.
    package var serialized: String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Written as UTF-8 bytes, appended in runs: an answer is built for every search
    /// `journal serve` answers.
    private func write(to output: inout [UInt8]) {
        switch self {
        case .string(let string): Self.writeString(string, to: &output)
        case .integer(let value): output += String(value).utf8
        case .number(let value): output += (value.isFinite ? String(value) : "null").utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .null: output += "null".utf8
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs): Self.writeObject(pairs.map { ($0.key, $0.value) }, to: &output)
        case .fields(let pairs): Self.writeObject(pairs, to: &output)
        }
    }

    private static func writeObject(_ pairs: [(String, JSONValue)], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (index, (key, value)) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            value.write(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends `string` quoted, escaping what JSON must (quote, backslash, control characters)
    /// and U+2028, U+2029 and DEL, which JavaScript readers trip on; every other byte is copied
    /// in runs, as UTF-8.
    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var width = 1
                let escape: String?
                switch byte {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x00...0x1F, 0x7F: escape = unicodeEscape(UInt32(byte))
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    width = 3
                default: escape = nil
                }
                if let escape {
                    output += UnsafeBufferPointer(rebasing: bytes[start..<index])
                    output += escape.utf8
                    start = index + width
                }
                index += width
            }
            output += UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\u` and four hexadecimal digits.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
