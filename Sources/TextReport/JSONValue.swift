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
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let string): Self.writeString(string, to: &output)
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? String(value) : "null"
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let pairs): Self.writeObject(pairs.map { ($0.key, $0.value) }, to: &output)
        case .fields(let pairs): Self.writeObject(pairs, to: &output)
        }
    }

    private static func writeObject(_ pairs: [(String, JSONValue)], to output: inout String) {
        output += "{"
        for (index, (key, value)) in pairs.enumerated() {
            if index > 0 { output += "," }
            writeString(key, to: &output)
            output += ":"
            value.write(to: &output)
        }
        output += "}"
    }

    /// Appends `string` quoted, escaping what JSON must (quote, backslash, control characters)
    /// and U+2028, U+2029 and DEL, which JavaScript readers trip on; every other byte is copied
    /// in runs, as UTF-8.
    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            func flush(upTo end: Int) {
                if start < end {
                    output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                }
            }
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
                    flush(upTo: index)
                    output += escape
                    start = index + width
                }
                index += width
            }
            flush(upTo: bytes.count)
        }
        output += "\""
    }

    /// `\u` and four hexadecimal digits.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
