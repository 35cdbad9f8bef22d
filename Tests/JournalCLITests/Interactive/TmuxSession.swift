import Foundation
import JournalBench
import Testing

/// A program running in a real terminal: a tmux server of its own (its own socket, so tests
/// run side by side), one window of a given size, keys sent as a user types them, and the
/// screen read back as text.
///
/// The program runs under a shell that notes the terminal's settings before it starts and
/// after it ends, and then prints `exit=STATUS terminal=restored` (or `terminal=changed`) and
/// waits, so that a test can read how it ended.
final class TmuxSession {
    private let socket = "journal-test-\(UUID().uuidString.prefix(8))"

    /// Starts `command` (an executable and its arguments) with `environment` added.
    init(_ command: [String], environment: [String: String] = [:], columns: Int = 100, rows: Int = 20) throws {
        let variables = [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "",
            "XDG_CONFIG_HOME": "/nonexistent-journal-config",
        ].merging(environment) { $1 }
        let exports = variables.map { "export \($0.key)=\(Self.quoted($0.value))" }.joined(separator: "; ")
        let script = """
            \(exports); [ -z "$NO_COLOR" ] && unset NO_COLOR; before=$(stty -g); \(command.map(Self.quoted).joined(separator: " ")); \
            status=$?; after=$(stty -g); [ "$before" = "$after" ] && state=restored || state=changed; \
            printf '\\nexit=%s terminal=%s\\n' "$status" "$state"; sleep 600
            """
        try tmux(
            ["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh", "-c", script],
            readingOutput: false)
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Sends tmux key names ("Down", "C-e", "Escape"), one at a time, each as its own input.
    func press(_ keys: String...) throws {
        for key in keys {
            try tmux(["send-keys", key])
            usleep(60_000)
        }
    }

    /// Types `text` one character at a time, as literal keys.
    func type(_ text: String) throws {
        for character in text {
            try tmux(["send-keys", "-l", String(character)])
            usleep(20_000)
        }
    }

    /// Pastes `text` as a terminal does, bracketed when the program asked for it.
    func paste(_ text: String) throws {
        try tmux(["set-buffer", "--", text])
        try tmux(["paste-buffer", "-p", "-d"])
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The screen's lines, without trailing spaces; with `escapes`, with the escape sequences
    /// of colours and styles kept.
    func screen(escapes: Bool = false) throws -> [String] {
        var lines = try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : [])).split(
            separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// A tmux format of the pane: "#{alternate_on}", "#{cursor_flag}", "#{pane_pid}".
    func pane(_ format: String) throws -> String {
        try tmux(["display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until `condition` holds of the screen, and returns that screen; a test failure,
    /// with the screen as it stood, after `seconds`.
    @discardableResult
    func waitFor(
        _ what: String, seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var lines = try screen()
        while !condition(lines) {
            guard Date() < deadline else {
                Issue.record(
                    "waited \(seconds) s for \(what); the screen:\n\(lines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
                throw TimedOut()
            }
            usleep(30_000)
            lines = try screen()
        }
        return lines
    }

    /// Waits for the screen to contain `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try waitFor("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains { $0.contains(text) } }
    }

    /// Waits for the program to end; returns its exit status and whether the terminal's
    /// settings were as before it started.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, restored: Bool) {
        let lines = try waitFor("the program to end", sourceLocation: sourceLocation) {
            $0.contains { $0.hasPrefix("exit=") }
        }
        let line = lines.first { $0.hasPrefix("exit=") }!
        let status = Int32(line.dropFirst(5).prefix { $0.isNumber }) ?? -1
        return (status, line.hasSuffix("terminal=restored"))
    }

    struct TimedOut: Error {}

    /// Runs the tmux client; with `readingOutput`, returns what it printed (without, its output
    /// goes nowhere: a server it starts outlives it and must not hold a pipe read to its end).
    @discardableResult
    private func tmux(_ arguments: [String], readingOutput: Bool = true) throws -> String {
        let tmux = try #require(
            ChildProcess.find("tmux"), "tmux is not installed (scripts/install-dependencies installs it)")
        let outcome = try ChildProcess.run(tmux, ["-L", socket] + arguments, captureOutput: readingOutput)
        return String(decoding: outcome.output, as: UTF8.self)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
