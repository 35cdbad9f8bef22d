import Foundation
import JournalKit
import TOMLKit

/// The user's settings, from `$XDG_CONFIG_HOME/journal/config.toml` (`~/.config/journal/`
/// when the variable is unset): journals by name, the default one, the editor, the default
/// strategy and order of search results, and whether to use colour. With no file, every setting
/// is as if unset.
///
/// ```toml
/// default = "personal"
/// editor = "nvim"
/// strategy = "prefix"
/// sort = "relevance"        # newest (the default), oldest or relevance
/// color = "auto"            # auto, always or never (`colour` too)
///
/// [journals]
/// personal = "~/Journals/personal"
/// work = "/srv/journals/work"
/// ```
///
/// A file that can't be read, isn't TOML, has a key it doesn't know or a value of the wrong
/// kind is an error naming the file, the line and what is wrong; nothing else runs.
struct ConfigurationFile: Sendable {
    /// Where the file is (whether or not it exists).
    let url: URL
    /// Whether there is a file.
    let exists: Bool
    /// Journals by name, sorted by name, each with its folder (`~` and paths relative to the
    /// file's folder resolved).
    private(set) var journals: [(name: String, folder: String)] = []
    /// The journal used when none is named.
    private(set) var defaultJournal: String?
    /// The editor command, before $VISUAL and $EDITOR.
    private(set) var editor: String?
    /// The strategy `search` uses when none is given.
    private(set) var strategy: String?
    /// The order `search` gives its results in when none is given.
    private(set) var sort: SearchOrder?
    /// Whether output uses colour.
    private(set) var color: ColorChoice = .auto

    /// When output uses colour.
    enum ColorChoice: String, CaseIterable, Sendable {
        /// On a terminal, unless NO_COLOR is set or TERM is "dumb".
        case auto
        /// Always, on a terminal or not.
        case always
        /// Never.
        case never
    }

    /// The process's configuration, read once.
    static let current: Result<ConfigurationFile, JournalError> = Result { () throws(JournalError) in
        try ConfigurationFile(environment: ProcessEnvironment.variables)
    }

    /// The configuration of the environment: the file `XDG_CONFIG_HOME` (or `HOME`) points to.
    init(environment: [String: String]) throws(JournalError) {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        try self.init(
            url: URL(fileURLWithPath: base).appendingPathComponent("journal/config.toml"), environment: environment)
    }

    /// The configuration in the file at `url`.
    init(url: URL, environment: [String: String]) throws(JournalError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            exists = false
            return
        }
        exists = true
        let text: String
        do {
            let data = try Data(contentsOf: url)
            guard let decoded = String(validating: data, as: UTF8.self) else {
                throw problem(1, "it is not valid UTF-8")
            }
            text = decoded
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError(.usage, "\(url.path): cannot be read: \(error.localizedDescription)")
        }
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw problem(
                error.source.begin.line, error.description.prefix(1).lowercased() + error.description.dropFirst())
        } catch {
            throw problem(1, "\(error)")
        }
        let lines = KeyLines(text)
        let home = environment["HOME"] ?? NSHomeDirectory()
        for key in table.keys {
            let line = lines.line(of: key, in: nil)
            let value = table[key]
            switch key {
            case "journals":
                guard let journals = value?.table else {
                    throw problem(line, "journals must be a table: [journals] then name = \"folder\"")
                }
                for name in journals.keys.sorted() {
                    let line = lines.line(of: name, in: "journals")
                    guard let folder = journals[name]?.string, !folder.isEmpty else {
                        throw problem(
                            line, "journal \"\(name)\" needs a folder as a string: \(name) = \"~/Journals/\(name)\"")
                    }
                    self.journals.append((name, Self.resolve(folder, home: home, besides: url)))
                }
            case "default", "editor", "strategy", "sort", "color", "colour":
                guard let string = value?.string, !string.isEmpty else {
                    throw problem(line, "\(key) must be a non-empty string")
                }
                switch key {
                case "default": defaultJournal = string
                case "editor": editor = string
                case "strategy":
                    guard SearchStrategies.all.contains(where: { $0.name == string || $0.alias == string }) else {
                        throw problem(
                            line, "strategy \"\(string)\" is not one of journal's (journal search --strategy list)")
                    }
                    strategy = string
                case "sort":
                    guard let order = SearchOrder(rawValue: string) else {
                        throw problem(line, "sort must be newest, oldest or relevance, not \"\(string)\"")
                    }
                    sort = order
                default:
                    guard let choice = ColorChoice(rawValue: string) else {
                        throw problem(line, "\(key) must be auto, always or never, not \"\(string)\"")
                    }
                    color = choice
                }
            default:
                throw problem(
                    line, "unknown setting \"\(key)\" (known: default, editor, strategy, sort, color, [journals])")
            }
        }
        if let defaultJournal, !journals.contains(where: { $0.name == defaultJournal }) {
            throw problem(
                lines.line(of: "default", in: nil), "the default journal \"\(defaultJournal)\" is not under [journals]")
        }
    }

    /// A usage error naming the file and `line`.
    private func problem(_ line: Int, _ what: String) -> JournalError {
        JournalError(.usage, "\(url.path):\(line): \(what)")
    }

    /// The folder of journal `name`; an unknown name is a usage error listing the known ones.
    func folder(ofJournal name: String) throws(JournalError) -> String {
        if let journal = journals.first(where: { $0.name == name }) { return journal.folder }
        guard exists else {
            throw JournalError(
                .usage,
                "no journal named \"\(name)\": name it in \(url.path) (create it: [journals] then \(name) = \"FOLDER\")"
            )
        }
        let known = journals.isEmpty ? "it names none" : "it names " + journals.map(\.name).joined(separator: ", ")
        throw JournalError(.usage, "no journal named \"\(name)\" in \(url.path) (\(known))")
    }

    /// `folder` as a path: `~` is the home folder, a relative path is relative to the file's folder.
    private static func resolve(_ folder: String, home: String, besides file: URL) -> String {
        if folder == "~" { return home }
        if folder.hasPrefix("~/") { return home + folder.dropFirst(1) }
        if folder.hasPrefix("/") { return folder }
        return file.deletingLastPathComponent().appendingPathComponent(folder).standardizedFileURL.path
    }
}

/// Where each key of a TOML document is written, for messages: the line of `key = …` at the
/// top level or under a `[table]` header. TOMLKit's values do not say where they were.
private struct KeyLines {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                table = Self.key(line.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces))
                continue
            }
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            let key = Self.key(line[..<equals].trimmingCharacters(in: .whitespaces))
            let name = (table.map { $0 + "." } ?? "") + key
            if lines[name] == nil { lines[name] = index + 1 }
        }
    }

    /// A key without its quotes.
    private static func key(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
            return text
        }
        return String(text.dropFirst().dropLast())
    }

    /// The line of `key` in `table` (nil: the top level); the first line when not found.
    func line(of key: String, in table: String?) -> Int {
        lines[(table.map { $0 + "." } ?? "") + key] ?? lines[key] ?? 1
    }
}
