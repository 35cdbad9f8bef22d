import ArgumentParser
import Foundation
import JournalKit

/// One request to `journal serve`: a JSON object naming the command and its options by their
/// long names, turned into the arguments the command line would give them, so that one parser
/// reads both.
///
/// `{"command": "search", "query": "new york", "limit": 5, "sort": "relevance", "tag": ["trip"]}`
/// is `search --limit=5 --sort=relevance --tag=trip --json -- new york`: a string or a number is
/// an option's value (after `=`, so that one starting with `-` stays a value), `true` a flag
/// given (`false` and `null` none), an array the option repeated; the command's positional
/// argument (``ServedCommand/positionalKey``) goes after `--`, a string or an array of words.
struct ServeRequest {
    /// The commands a server answers, by name.
    static let commands: [String: any ServedCommand.Type] = [
        "search": SearchCommand.self, "list": ListCommand.self, "show": ShowCommand.self, "add": AddCommand.self,
        "tags": TagsCommand.self,
    ]

    let command: any ServedCommand.Type
    /// The arguments after the command's name.
    let arguments: [String]

    /// The request a line holds; a usage error saying what is wrong with it.
    init(line: String) throws(JournalError) {
        guard let object = try? JSONDecoder().decode([String: Value].self, from: Data(line.utf8)) else {
            throw .usage(
                "a request is one JSON object on a line, of strings, numbers, true, false, null and lists of them: "
                    + "{\"command\": \"search\", \"query\": \"…\"}")
        }
        guard case .text(let name) = object["command"] else {
            throw .usage("a request names its command: \"command\": one of \(Self.commandList)")
        }
        guard let command = Self.commands[name] else {
            throw .usage("journal serve does not answer \"\(name)\": it answers \(Self.commandList)")
        }
        self.command = command
        var options: [String] = []
        var positional: [String] = []
        for key in object.keys.sorted() where key != "command" {
            let values = try object[key]!.arguments(of: key)
            if key == command.positionalKey {
                positional = values.compactMap { $0 }
            } else {
                options += values.map { value in value.map { "--\(key)=\($0)" } ?? "--\(key)" }
            }
        }
        arguments = options + ["--json"] + (positional.isEmpty ? [] : ["--"] + positional)
    }

    /// The command parsed from the arguments, as the command line parses them: a search or a
    /// list directly (``DirectCommandLine``) when it can, else by the full parser.
    func parse() throws -> any JournalAnswering {
        let name = command.configuration.commandName ?? ""
        switch DirectCommandLine.parse([name] + arguments) {
        case .search(_, let search): return search
        case .list(_, let list): return list
        default: break
        }
        guard let parsed = try JournalCommand.parseAsRoot([name] + arguments) as? any ServedCommand else {
            throw JournalError.usage("journal serve does not answer \"\(name)\"")
        }
        return parsed
    }

    /// A value of a request, as JSON gives it.
    enum Value: Decodable {
        case text(String)
        case number(String)
        case flag(Bool)
        case none
        case list([Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .none
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let integer = try? container.decode(Int.self) {
                self = .number(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .number(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try container.decode([Value].self))
            }
        }

        /// The value as arguments of the option `key`: each a value (nil: a flag, given once).
        func arguments(of key: String) throws(JournalError) -> [String?] {
            switch self {
            case .text(let text), .number(let text): return [text]
            case .flag(let given): return given ? [nil] : []
            case .none: return []
            case .list(let items):
                var all: [String?] = []
                for item in items {
                    switch item {
                    case .text(let text), .number(let text): all.append(text)
                    default: throw .usage("\"\(key)\" holds a list of strings or numbers")
                    }
                }
                return all
            }
        }
    }

    private static var commandList: String { commands.keys.sorted().joined(separator: ", ") }
}
