/// A JSON value whose objects keep their keys in the order written: Foundation's encoder on
/// Linux does not, and the command's JSON is read by people as well as programs.
enum JSONValue {
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
    var serialized: String {
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

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{2028}", "\u{2029}", "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
