import ArgumentParser
import Foundation
import JournalKit
import TextReport

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Answer requests from a program, one JSON line in, one JSON line out, the journal open throughout.",
        discussion: """
            For a program that searches many times (an editor plugin, a script, fzf): the journal \
            is opened once, and each request costs what the search costs in a process that keeps \
            it open. A request is one JSON object on a line of standard input, naming the command \
            and its options by their long names:

              {"command": "search", "query": "new york", "limit": 5, "sort": "relevance"}
              {"command": "list", "from": "2024-05", "tag": ["trip"], "starred": true}
              {"command": "show", "id": "p12"}
              {"command": "add", "text": "A line from a script", "tag": ["work"]}
              {"command": "tags", "query": "#trip OR japan"}

            Commands: search, list, show, add, tags. A value is the option's value, true a flag, \
            a list the option given once for each item; "query" (search), "id" (show) and "text" \
            (add) are the command's argument. Each answer is one line of standard output: the \
            object the command prints with --json, or {"error": {"kind": …, "message": …}} for a \
            request that fails, after which the server goes on. It ends at the end of its input.

            Writes made meanwhile by other processes are seen by the next request. An encrypted \
            journal's passphrase is read once, at the start.
            """)

    @ParentCommand var journal: JournalCommand

    func run() throws {
        let journal = try self.journal.openJournal(use: .kept)
        try? journal.prepareForTyping()
        while let line = readLine(strippingNewline: true) {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            Terminal.standardOutput.write(Self.answer(line, in: journal).serialized + "\n")
        }
    }

    /// The answer to the request `line`: the command's JSON, or an error object.
    static func answer(_ line: String, in journal: Journal) -> JSONValue {
        do {
            let command = try ServeRequest(line: line).parse()
            return try command.answer(in: journal)
        } catch {
            let (kind, message) = Self.failure(error)
            return .object(["error": .object(["kind": .string(kind), "message": .string(message)])])
        }
    }

    /// What a failure says: the journal's own kind and message, or, from the parser, a usage
    /// error in its first line.
    private static func failure(_ error: any Error) -> (kind: String, message: String) {
        if let error = error as? JournalError { return (error.kind.rawValue, error.message) }
        let full = JournalCommand.fullMessage(for: error)
        let first = full.split(separator: "\n").first.map(String.init) ?? "\(error)"
        return ("usage", first.hasPrefix("Error: ") ? String(first.dropFirst("Error: ".count)) : first)
    }
}
