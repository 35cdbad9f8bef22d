import Foundation
import Testing

/// `journal serve`: one JSON request a line in, one answer a line out, the journal open
/// throughout. Each answer is what the command prints with `--json`; a bad request gets an
/// error object and the server goes on; writes by other processes are seen by the next request.
@Suite struct ServeTests {
    /// A server on `journal`, its standard input and output pipes held by the test.
    final class Server {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffered = Data()

        init(_ journal: JournalProcess) throws {
            process.executableURL = JournalProcess.executable
            process.arguments = ["--store", journal.store.path, "serve"]
            process.environment = ProcessInfo.processInfo.environment.merging(journal.environment) { $1 }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Sends `line` and reads the answer's line.
        func ask(_ line: String) throws -> String {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
            while !buffered.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw Ended() }
                buffered += chunk
            }
            let end = buffered.firstIndex(of: 0x0A)!
            defer { buffered = Data(buffered[(end + 1)...]) }
            return String(decoding: buffered[..<end], as: UTF8.self)
        }

        /// Sends `request`, written as JSON, and reads the answer as a JSON object or array.
        func ask(_ request: [String: Any]) throws -> Any {
            let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
            return try JSONSerialization.jsonObject(with: Data(try ask(line).utf8))
        }

        struct Ended: Error {}

        /// Closes its input and waits for it to end; its exit status.
        func finish() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// The answer without the time it took, which differs from run to run.
    private func withoutTime(_ value: Any) -> NSDictionary {
        var object = value as? [String: Any] ?? ["array": value]
        object["milliseconds"] = nil
        return object as NSDictionary
    }

    @Test func eachAnswerIsWhatTheCommandPrintsWithJSON() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["import", JournalProcess.sampleCorpus.path]).status == 0)
        let server = try Server(journal)
        let cases: [([String: Any], [String])] = [
            (["command": "search", "query": "bru cre", "limit": 3], ["search", "--limit", "3", "bru cre"]),
            (
                ["command": "search", "query": ["café", "-work"], "sort": "relevance", "limit": 2],
                ["search", "--sort=relevance", "--limit=2", "--", "café", "-work"]
            ),
            (
                ["command": "search", "query": "tokyo", "strategy": "contains[n]", "from": "2023-06"],
                ["search", "--strategy", "contains[n]", "--from", "2023-06", "tokyo"]
            ),
            (
                ["command": "search", "regex": "[0-9]{4}", "limit": 1],
                ["search", "--regex", "[0-9]{4}", "--limit", "1"]
            ),
            (
                ["command": "list", "limit": 5, "offset": 2, "starred": false, "to": "2023"],
                ["list", "--limit", "5", "--offset", "2", "--to", "2023"]
            ),
            (
                ["command": "list", "on-this-day": "2024-05-26", "limit": 0],
                ["list", "--on-this-day=2024-05-26", "--limit", "0"]
            ),
            (["command": "show", "id": "p12"], ["show", "p12"]),
            (["command": "tags", "query": "café OR tokyo"], ["tags", "--query", "café OR tokyo"]),
            (["command": "tags"], ["tags"]),
        ]
        for (request, arguments) in cases {
            let answer = try server.ask(request)
            let printed = try journal.run([arguments[0], "--json"] + arguments.dropFirst())
            #expect(printed.status == 0, "\(arguments): \(printed.error)")
            let expected = try JSONSerialization.jsonObject(with: Data(printed.output.utf8))
            #expect(withoutTime(answer) == withoutTime(expected), "\(request)")
        }
        #expect(server.finish() == 0)
    }

    @Test func aBadRequestGetsAnErrorAndTheServerGoesOn() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the only entry"]).status == 0)
        let server = try Server(journal)
        let bad: [(String, String, String)] = [
            ("not json", "usage", "one JSON object on a line"),
            (#"{"query": "x"}"#, "usage", "names its command"),
            (#"{"command": "export"}"#, "usage", "does not answer \"export\""),
            (#"{"command": "search", "limt": 3, "query": "x"}"#, "usage", "--limt"),
            (#"{"command": "list", "limit": -1}"#, "usage", "--limit must be 0"),
            (#"{"command": "list", "limit": "many"}"#, "usage", "many"),
            (#"{"command": "show", "id": "p99"}"#, "notFound", "no entry"),
            (#"{"command": "add"}"#, "usage", "\"text\""),
            (#"{"command": "search", "query": "x", "tag": [{"a": 1}]}"#, "usage", "one JSON object"),
            (#"{"command": "search", "query": "(unclosed", "strategy": "nope"}"#, "usage", "nope"),
        ]
        for (line, kind, words) in bad {
            let answer = try JSONSerialization.jsonObject(with: Data(try server.ask(line).utf8)) as? [String: Any]
            let error = answer?["error"] as? [String: Any]
            #expect(error?["kind"] as? String == kind, "\(line): \(answer ?? [:])")
            #expect((error?["message"] as? String)?.contains(words) == true, "\(line): \(answer ?? [:])")
        }
        let answer = try server.ask(["command": "search", "query": "only"]) as? [String: Any]
        #expect(answer?["total"] as? Int == 1)
        #expect(server.finish() == 0)
    }

    @Test func writesOnEitherSideAreSeenByTheOther() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "written before the server"]).status == 0)
        let server = try Server(journal)
        #expect((try server.ask(["command": "search", "query": "written"]) as? [String: Any])?["total"] as? Int == 1)
        let added = try server.ask(["command": "add", "text": "added through the server #served", "star": true])
        #expect((added as? [String: Any])?["starred"] as? Bool == true)
        #expect(try journal.run(["search", "--json", "served"]).json()["total"] as? Int == 1)
        #expect(try journal.run(["add", "written by another process"]).status == 0)
        #expect((try server.ask(["command": "search", "query": "written"]) as? [String: Any])?["total"] as? Int == 2)
        #expect((try server.ask(["command": "list"]) as? [String: Any])?["total"] as? Int == 3)
        let tags = try server.ask(["command": "tags"]) as? [[String: Any]]
        #expect(tags?.map { $0["name"] as? String } == ["served"])
        #expect(server.finish() == 0)
    }
}
