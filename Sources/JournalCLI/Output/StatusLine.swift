import Foundation

/// Progress of a long command on standard error: one line rewritten in place on a terminal,
/// one line per step otherwise (so logs keep them).
final class StatusLine: @unchecked Sendable {
    private let terminal = Terminal.standardError
    private let lock = NSLock()
    private var shown = false

    func show(_ message: String) {
        lock.withLock {
            if terminal.isTerminal {
                terminal.write("\r\u{1B}[2K" + message)
                shown = true
            } else {
                terminal.write(message + "\n")
            }
        }
    }

    func finish() {
        lock.withLock {
            if shown { terminal.write("\r\u{1B}[2K") }
            shown = false
        }
    }
}
