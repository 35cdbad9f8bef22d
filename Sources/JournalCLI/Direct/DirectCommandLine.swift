import ArgumentParser
import JournalKit

/// The command lines other programs start most often — `journal search …`, `journal list …`,
/// `journal --version`, `journal --help` — read without swift-argument-parser's parser, whose
/// reading of a command line reflects every command's properties and looks up protocol
/// conformances across the whole binary, before a cold search has begun. A help screen
/// is still swift-argument-parser's, rendered by it for the command asked about.
///
/// Invariant: a command line read here gives exactly the values the full parser gives
/// (``SearchArguments``, ``ListArguments``, ``JournalLocation``) and passes the same checks;
/// anything else — help, a value missing or malformed, an option given twice, an unknown
/// option, a check that fails — is not read here (nil), so that the full parser reads it and
/// says what is wrong as it always has. `DirectCommandLineTests` hold the two parsers to
/// agreeing on thousands of command lines.
enum DirectCommandLine {
    /// A command line read, ready to run.
    enum Command: Equatable {
        case search(JournalLocation, SearchArguments)
        case list(JournalLocation, ListArguments)
        case version
        /// `journal --help`, `journal -h`, `journal COMMAND --help`: the command's help screen.
        case help(any ParsableCommand.Type)

        static func == (lhs: Command, rhs: Command) -> Bool {
            switch (lhs, rhs) {
            case (.search(let a, let b), .search(let c, let d)): a == c && b == d
            case (.list(let a, let b), .list(let c, let d)): a == c && b == d
            case (.version, .version): true
            case (.help(let a), .help(let b)): a == b
            default: false
            }
        }

        /// Runs it as the command would.
        func run() throws {
            switch self {
            case .search(let location, let arguments): try arguments.run(in: location)
            case .list(let location, let arguments): try arguments.run(in: location)
            case .version: print(JournalCommand.configuration.version)
            case .help(let command): print(JournalCommand.helpMessage(for: command))
            }
        }

        /// Whether it runs with the configuration file read (and refuses to when it is broken):
        /// every command does but the version and help screens, which ask nothing of it.
        var readsConfiguration: Bool {
            switch self {
            case .search, .list: true
            case .version, .help: false
            }
        }

        /// The command the full parser would have parsed, for messages.
        var commandType: any ParsableCommand.Type {
            switch self {
            case .search: SearchCommand.self
            case .list: ListCommand.self
            case .version: JournalCommand.self
            case .help(let command): command
            }
        }
    }

    /// `arguments` (after the program's name, bare optional values already given theirs:
    /// ``OptionalValueArguments``) read, or nil when the full parser must read them.
    static func parse(_ arguments: [String]) -> Command? {
        if arguments == ["--version"] { return .version }
        if let help = help(arguments) { return .help(help) }
        var reader = Reader(arguments)
        var location = JournalLocation()
        while let token = reader.peek, token.hasPrefix("-") {
            reader.advance()
            switch Reader.split(token) {
            case ("--store", let attached): guard reader.value(attached, into: &location.store) else { return nil }
            case ("-j", nil), ("--journal", _):
                guard reader.value(Reader.split(token).value, into: &location.journalName) else { return nil }
            default: return nil
            }
        }
        switch reader.next() {
        case "search": return search(&reader).map { .search(location, $0) }
        case "list": return list(&reader).map { .list(location, $0) }
        default: return nil
        }
    }

    /// The command whose help `arguments` ask for alone: `--help` or `-h`, after a command's name
    /// or none.
    private static func help(_ arguments: [String]) -> (any ParsableCommand.Type)? {
        guard let last = arguments.last, last == "--help" || last == "-h" else { return nil }
        switch arguments.count {
        case 1: return JournalCommand.self
        case 2:
            return JournalCommand.configuration.subcommands.first {
                $0.configuration.commandName == arguments[0]
            }
        default: return nil
        }
    }

    /// The rest of `reader` as `journal search`'s options and query, checked.
    private static func search(_ reader: inout Reader) -> SearchArguments? {
        var values = SearchArguments()
        var given = Set<String>()
        while let token = reader.next() {
            if token == "--" {
                values.arguments += [token] + reader.rest()
                break
            }
            if !token.hasPrefix("-") || token == "-" || token == "-o" {
                values.arguments.append(token)
                continue
            }
            let (name, attached) = Reader.split(token)
            guard name.hasPrefix("--") || name == "-i" else {
                // A word to leave out (`-work`), unless it could hold a short option the parser knows.
                guard !name.contains("i"), !name.contains("h") else { return nil }
                values.arguments.append(token)
                continue
            }
            // Every option once but --tag: a second is left to the full parser.
            let key = name == "-i" ? "--ignore-case" : name == "--out" ? "--output" : name
            guard key == "--tag" || given.insert(key).inserted else { return nil }
            switch name {
            case "--strategy": guard reader.value(attached, into: &values.strategy) else { return nil }
            case "--sort":
                var text: String?
                guard reader.value(attached, into: &text), let order = text.flatMap(SearchOrder.init(rawValue:)) else {
                    return nil
                }
                values.sort = order
            case "--regex": guard reader.value(attached, into: &values.regex, unconditional: true) else { return nil }
            case "-i", "--ignore-case":
                guard attached == nil else { return nil }
                values.ignoreCase = true
            case "--interactive":
                guard attached == nil else { return nil }
                values.interactive = true
            case "--json":
                guard attached == nil else { return nil }
                values.json = true
            case "--output", "--out":
                var text: String?
                guard reader.value(attached, into: &text),
                    let destination = text.flatMap(OutputDestination.init(argument:))
                else { return nil }
                values.outputFile = destination
            default:
                guard reader.pageOrFilter(name, attached, page: &values.page, filters: &values.filters) else {
                    return nil
                }
            }
        }
        do {
            try values.page.validate()
            try values.filters.validate()
            try values.validate()
        } catch {
            return nil
        }
        return values
    }

    /// The rest of `reader` as `journal list`'s options, checked.
    private static func list(_ reader: inout Reader) -> ListArguments? {
        var values = ListArguments()
        var given = Set<String>()
        while let token = reader.next() {
            let (name, attached) = Reader.split(token)
            guard name.hasPrefix("--"), name == "--tag" || given.insert(name).inserted else { return nil }
            if name == "--json" {
                guard attached == nil else { return nil }
                values.json = true
            } else if !reader.pageOrFilter(name, attached, page: &values.page, filters: &values.filters) {
                return nil
            }
        }
        do {
            try values.page.validate()
            try values.filters.validate()
        } catch {
            return nil
        }
        return values
    }

    /// The arguments, read one at a time.
    private struct Reader {
        private let arguments: [String]
        private var index = 0

        init(_ arguments: [String]) { self.arguments = arguments }

        var peek: String? { index < arguments.count ? arguments[index] : nil }

        mutating func advance() { index += 1 }

        mutating func next() -> String? {
            defer { index += 1 }
            return peek
        }

        mutating func rest() -> [String] {
            defer { index = arguments.count }
            return Array(arguments[min(index, arguments.count)...])
        }

        /// `--name=value` as its name and value; any other argument as itself, with no value.
        static func split(_ token: String) -> (name: String, value: String?) {
            guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
            return (String(token[..<equals]), String(token[token.index(after: equals)...]))
        }

        /// An option's value: the one after `=`, else the next argument (one that starts with
        /// `-` only when `unconditional`). False when there is none.
        mutating func value(_ attached: String?, into slot: inout String?, unconditional: Bool = false) -> Bool {
            if let attached {
                slot = attached
                return true
            }
            guard let next = peek, unconditional || !next.hasPrefix("-") else { return false }
            advance()
            slot = next
            return true
        }

        /// One of the options of a page or of the filters, read into them; false when `name`
        /// is none of them or its value is missing or malformed.
        mutating func pageOrFilter(
            _ name: String, _ attached: String?, page: inout PageValues, filters: inout FilterValues
        ) -> Bool {
            switch name {
            case "--limit", "--offset":
                var text: String?
                guard value(attached, into: &text), let number = text.flatMap({ Int($0) }) else { return false }
                if name == "--limit" { page.limit = number } else { page.offset = number }
            case "--from": return value(attached, into: &filters.from)
            case "--to": return value(attached, into: &filters.to)
            case "--on": return value(attached, into: &filters.on)
            case "--on-this-day":
                guard let attached else { return false }
                filters.onThisDay = attached
            case "--tag":
                var text: String?
                guard value(attached, into: &text), let tag = text else { return false }
                filters.tags.append(tag)
            case "--starred":
                guard attached == nil else { return false }
                filters.starred = true
            default: return false
            }
            return true
        }
    }
}
