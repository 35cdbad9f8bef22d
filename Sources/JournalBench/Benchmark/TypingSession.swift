import CPseudoTerminal
import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Keys typed into the full-screen search, and how long each took to show its answer.
public struct TypingLatency: Sendable {
    /// The strategy the screen searched with.
    public let strategy: StrategyID
    /// What was typed: "words" (the benchmark's queries) or "phrases" (those of the query
    /// syntax's timing, quotes and all).
    public let queries: String
    /// For each key, from writing it to the terminal to the end of the first frame that shows
    /// the answer's entries for the query as typed so far (its total may still be counting): the
    /// session as a user first types it, reading from disk the entries it shows for the first
    /// time.
    public let keys: [Double]
    /// For each key, from writing it to the end of the first frame that shows the answer's
    /// total too: the same as ``keys`` for a query counted with its page.
    public let keysCounted: [Double]
    /// The same keys typed again in the same session: what they cost once the entries they
    /// show are in memory.
    public let keysAgain: [Double]

    /// Median, p95 and worst over the keys.
    public var latency: LatencySummary { LatencySummary(keys) }
    /// Median, p95 and worst over the keys, to the frame with the total.
    public var latencyCounted: LatencySummary { LatencySummary(keysCounted) }
    /// Median, p95 and worst over the keys typed again.
    public var latencyAgain: LatencySummary { LatencySummary(keysAgain) }
}

/// A person typing into `journal search --interactive`, played by a script: the program runs
/// on a pseudo-terminal, as on a real one; each query is typed one key at a time, and after
/// each key the script reads the screen's output until a frame shows the query as typed with
/// its search finished (not "searching…"), and then until one shows its total (not
/// "counting…"), before the next key. Between queries, Ctrl-U clears the line (untimed).
/// The whole set is typed twice: first as a user would after opening the journal, then again.
enum TypingSession {
    /// Types `queries` (described as `kind`) into `executable --store store search --interactive
    /// --strategy strategy`.
    static func measure(
        executable: String, store: URL, strategy: StrategyID, queries: [String], kind: String
    ) throws -> TypingLatency {
        let terminal = try PseudoTerminal(columns: 120, rows: 40)
        defer { terminal.close() }
        let child = try terminal.spawn(
            executable, ["--store", store.path, "search", "--interactive", "--strategy", strategy.name],
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
        defer { terminal.end(child) }
        try terminal.waitForFrame(query: "")
        let first = try type(queries, on: terminal)
        return TypingLatency(
            strategy: strategy, queries: kind, keys: first.map(\.page), keysCounted: first.map(\.counted),
            keysAgain: try type(queries, on: terminal).map(\.page))
    }

    /// Each key's seconds from its press to the frame with its answer's entries, and to the
    /// frame with its total.
    private static func type(
        _ queries: [String], on terminal: PseudoTerminal
    ) throws -> [(page: Double, counted: Double)] {
        var keys: [(page: Double, counted: Double)] = []
        for query in queries {
            var typed = ""
            for character in query {
                typed.append(character)
                let start = ContinuousClock.now
                try terminal.send(Array(String(character).utf8))
                var counting = try terminal.waitForFrame(query: typed)
                let page = secondsSince(start)
                while counting { counting = try terminal.waitForFrame(query: typed) }
                keys.append((page, secondsSince(start)))
            }
            try terminal.send([0x15])
            while try terminal.waitForFrame(query: "") {}
        }
        return keys
    }
}

/// A pseudo-terminal whose far end a child program runs on, and what that program draws.
private final class PseudoTerminal {
    private let master: Int32
    private let slavePath: String
    private var output: [UInt8] = []

    init(columns: Int, rows: Int) throws {
        var path = [CChar](repeating: 0, count: 256)
        master = journal_open_pseudo_terminal(&path, path.count)
        guard master >= 0 else {
            throw JournalError(.store, "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slavePath = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Starts `executable` with the terminal as its input and output.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        variables["NO_COLOR"] = nil
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw JournalError(.store, "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    func send(_ bytes: [UInt8]) throws {
        guard write(master, bytes, bytes.count) == bytes.count else {
            throw JournalError(.store, "cannot write to the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads what the program draws until a whole frame shows `query` on its query line and a
    /// status line with no search under way; returns whether that frame's total is still being
    /// counted.
    @discardableResult
    func waitForFrame(query: String, seconds: Int32 = 30) throws -> Bool {
        let end: [UInt8] = Array("\u{1B}[?25h".utf8)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let frameEnd = output.lastRange(of: end) {
                let frame = String(decoding: output[..<frameEnd.lowerBound], as: UTF8.self)
                output.removeFirst(frameEnd.upperBound)
                if let counting = Self.shows(frame, query: query) { return counting }
                continue
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, seconds * 1000) > 0 else {
                throw JournalError(
                    .store, "journal search --interactive drew no answer for \"\(query)\" within \(seconds) s")
            }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else {
                throw JournalError(.store, "journal search --interactive ended while typing \"\(query)\"")
            }
            output += buffer[..<count]
        }
    }

    /// When the last frame in `text` has "> QUERY" on its first line and a finished search on
    /// its second, whether its total is still being counted; nil for any other frame.
    private static func shows(_ text: String, query: String) -> Bool? {
        guard let start = text.range(of: "\u{1B}[H", options: .backwards) else { return nil }
        // The terminal may turn each "\n" into "\r\n" on its way: carriage returns mean nothing here.
        let lines = plain(String(text[start.upperBound...])).replacingOccurrences(of: "\r", with: "").components(
            separatedBy: "\n")
        guard lines.count > 1 else { return nil }
        let trim = { (line: String) in String(line.reversed().drop { $0 == " " }.reversed()) }
        guard trim(lines[0]) == trim("> " + query), !lines[1].contains("searching") else { return nil }
        return lines[1].contains("counting")
    }

    /// `text` without its escape sequences.
    private static func plain(_ text: String) -> String {
        var output = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            guard scalars.next() == "[" else { continue }
            while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
        }
        return output
    }

    /// Quits the program (Escape) and waits for it; kills it if it doesn't go.
    func end(_ pid: pid_t) {
        try? send([0x1B])
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    func close() { Glibc.close(master) }
}

extension [UInt8] {
    /// The last place `needle` occurs.
    fileprivate func lastRange(of needle: [UInt8]) -> Range<Int>? {
        guard count >= needle.count else { return nil }
        for start in stride(from: count - needle.count, through: 0, by: -1)
        where self[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }
}
