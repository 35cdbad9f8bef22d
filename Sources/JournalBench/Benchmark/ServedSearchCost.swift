import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// What a program pays for a search through `journal serve` against the same search in its own
/// process: a request line written to the server's standard input, its answer line read back.
///
/// Each query is asked both ways in turn, round after round, on the journal as the benchmark
/// left it: ``Journal/search(_:strategy:page:filter:)`` here, then a request to one server kept
/// running beside it. The server's answers are compared with the library's: the same total and
/// the same entries, in the same order.
public struct ServedSearchCost: Sendable {
    /// The library's search in this process, each query's median.
    public let inProcess: LatencySummary
    /// A request to `journal serve` until its answer is read, each query's median.
    public let served: LatencySummary
    /// The queries whose served answer differed from the library's (none when they agree).
    public let disagreeing: [String]
    /// The same request lines sent to `cat` and read back, each query's median: what any
    /// server on a pipe costs before it does anything (two processes woken up).
    public let pipeRoundTrip: LatencySummary

    /// The ratio of the medians: served over in process.
    public var ratio: Double { served.median / max(inProcess.median, 1e-9) }

    /// The page both ways ask for.
    static let limit = 20

    /// Asks each of `queries` `runs` times each way: of `journal` in this process, and of a
    /// `journal --store STORE serve` process of `executable`.
    public static func measure(
        journal: Journal, store: URL, executable: String, queries: [String], runs: Int
    ) throws -> ServedSearchCost {
        let server = try ServerProcess(executable, ["--store", store.path, "serve"])
        defer { server.finish() }
        let echo = try ServerProcess("/bin/cat", [])
        defer { echo.finish() }
        var inProcess: [Double] = []
        var served: [Double] = []
        var echoed: [Double] = []
        var disagreeing: [String] = []
        for query in queries {
            var here: [Double] = []
            var there: [Double] = []
            var back: [Double] = []
            var answers: (SearchResults, ServedAnswer)?
            for _ in 0..<max(runs, 1) {
                let start = ContinuousClock.now
                let results = try journal.search(query, page: PageRequest(limit: limit))
                here.append(secondsSince(start))
                let request = try JSONEncoder().encode(ServedRequest(query: query, limit: limit))
                let asked = ContinuousClock.now
                let line = try server.ask(request)
                there.append(secondsSince(asked))
                answers = (results, try ServedAnswer(line, query: query))
                let sent = ContinuousClock.now
                _ = try echo.ask(request)
                back.append(secondsSince(sent))
            }
            if let (results, answer) = answers,
                answer.total != results.total || answer.ids != results.entries.map(\.id.uri)
            {
                disagreeing.append(query)
            }
            inProcess.append(LatencySummary(here).median)
            served.append(LatencySummary(there).median)
            echoed.append(LatencySummary(back).median)
        }
        return ServedSearchCost(
            inProcess: LatencySummary(inProcess), served: LatencySummary(served), disagreeing: disagreeing,
            pipeRoundTrip: LatencySummary(echoed))
    }

    private struct ServedRequest: Encodable {
        let command = "search"
        let query: String
        let limit: Int
    }

    /// The part of a served answer compared with the library's.
    private struct ServedAnswer: Decodable {
        struct Result: Decodable { let id: String }
        let total: Int
        let results: [Result]
        var ids: [String] { results.map(\.id) }

        init(_ line: Data, query: String) throws {
            do {
                self = try JSONDecoder().decode(ServedAnswer.self, from: line)
            } catch {
                let text = String(decoding: line.prefix(300), as: UTF8.self)
                throw JournalError(.store, "journal serve answered \"\(query)\" with no results: \(text)")
            }
        }
    }
}

/// A server process on a pipe (`journal serve`, or `cat`), its standard input and output held by
/// this one.
private final class ServerProcess {
    private let pid: pid_t
    private let requests: Int32
    private let answers: Int32
    private var buffered: [UInt8] = []

    init(_ executable: String, _ arguments: [String]) throws {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw JournalError(.store, "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw JournalError(.store, "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        requests = input[1]
        answers = output[0]
    }

    /// Writes `request` as a line and reads the answer's line.
    func ask(_ request: Data) throws -> Data {
        var line = [UInt8](request)
        line.append(UInt8(ascii: "\n"))
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { write(requests, $0.baseAddress, $0.count) }
            guard count > 0 || errno == EINTR else {
                throw JournalError(.store, "journal serve stopped reading: \(String(cString: strerror(errno)))")
            }
            written += max(count, 0)
        }
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = Data(buffered[..<end])
                buffered.removeSubrange(...end)
                return answer
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(answers, &chunk, chunk.count)
            if count > 0 {
                buffered += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                throw JournalError(.store, "journal serve ended before answering")
            }
        }
    }

    /// Closes its input, which ends it, and waits for it.
    func finish() {
        close(requests)
        close(answers)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
