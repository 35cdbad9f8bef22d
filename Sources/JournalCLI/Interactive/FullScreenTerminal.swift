import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal taken over for a full-screen program, and given back as it was found on every
/// way out: leaving normally, a quit signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT, which the event
/// loop hears about and leaves by), and a crash (its signal handler restores the terminal, then
/// lets the crash happen).
///
/// While it is taken, input is raw (every key as it is pressed, Ctrl-C as a key), output goes to
/// the alternate screen with line wrapping off (a line too long is cut, never scrolls the
/// screen), and pastes arrive bracketed. Other threads and signal handlers wake the event loop
/// through a pipe: see ``Wake``.
final class FullScreenTerminal {
    /// Why the event loop was woken besides input.
    enum Wake: UInt8 {
        case answer = 0x61
        case resize = 0x77
        case quit = 0x71
    }

    private let input = STDIN_FILENO
    private let output = STDOUT_FILENO
    private let wakeRead: Int32
    private var isTaken = false

    /// Installs the signal handlers; the terminal is taken by ``take()``.
    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Self.failure("cannot create a pipe") }
        wakeRead = fds[0]
        terminalWakeDescriptor = fds[1]
        for descriptor in fds { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        Self.install(SIGWINCH) { _ in FullScreenTerminal.wake(.resize) }
        for quit in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            Self.install(quit) { signal in
                terminalQuitSignal = signal
                FullScreenTerminal.wake(.quit)
            }
        }
        for crash in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            Self.install(crash) { signal in
                restoreTerminalAfterCrash()
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
        }
    }

    deinit {
        give()
        close(wakeRead)
        close(terminalWakeDescriptor)
        terminalWakeDescriptor = -1
    }

    /// Wakes the event loop from any thread or a signal handler.
    static func wake(_ reason: Wake) {
        var byte = reason.rawValue
        _ = Glibc.write(terminalWakeDescriptor, &byte, 1)
    }

    /// Raw input, the alternate screen, no line wrapping, bracketed paste.
    func take() throws {
        guard !isTaken else { return }
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw Self.failure("cannot read the terminal's settings") }
        savedTerminal = attributes
        cfmakeraw(&attributes)
        // Output processing stays as it was (\n still returns the carriage).
        attributes.c_oflag = savedTerminal.c_oflag
        // TCSADRAIN, not TCSAFLUSH: keys typed while the program started are kept, not discarded.
        guard tcsetattr(input, TCSADRAIN, &attributes) == 0 else {
            throw Self.failure("cannot put the terminal in raw mode")
        }
        terminalIsTaken = 1
        isTaken = true
        write(Self.enterSequence)
    }

    /// The terminal as it was before ``take()``.
    func give() {
        guard isTaken else { return }
        write(leaveTerminalSequence.description)
        var attributes = savedTerminal
        _ = tcsetattr(input, TCSADRAIN, &attributes)
        terminalIsTaken = 0
        isTaken = false
    }

    /// The quit signal that ended the loop, if one did.
    var quitSignal: Int32? { terminalQuitSignal == 0 ? nil : terminalQuitSignal }

    /// Rows and columns; 24×80 when the terminal won't say.
    var size: (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    func write(_ text: String) { Terminal.standardOutput.write(text) }

    /// Waits for input or a wake-up, at most `timeout` milliseconds (-1: no limit); returns the
    /// bytes read (empty when none) and the wake-ups that came.
    func wait(timeout: Int32) -> (input: [UInt8], wakes: [Wake], inputClosed: Bool) {
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, timeout)
        guard ready > 0 else { return ([], [], false) }
        var wakes: [Wake] = []
        if descriptors[1].revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(wakeRead, &buffer, buffer.count)
                guard count > 0 else { break }
                wakes += buffer[..<count].compactMap(Wake.init(rawValue:))
            }
        }
        var bytes: [UInt8] = []
        var closed = false
        if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                bytes = Array(buffer[..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                closed = true
            }
        }
        return (bytes, wakes, closed)
    }

    /// The terminal refused something: the search can't run full screen.
    private static func failure(_ what: String) -> JournalError {
        JournalError(.usage, "\(what): \(String(cString: strerror(errno)))")
    }

    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
    }

    /// Alternate screen, line wrapping off, bracketed paste on.
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?7l\u{1B}[?2004h\u{1B}[H\u{1B}[2J"
}

/// The reverse of taking the terminal, with the cursor shown and styles reset: static text, so
/// that a crash's signal handler can write it without allocating.
private let leaveTerminalSequence: StaticString = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

// What the signal handlers use: plain globals, set before any handler can run, read without a
// lock (a handler can't take one).
nonisolated(unsafe) private var terminalWakeDescriptor: Int32 = -1
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalIsTaken: sig_atomic_t = 0
nonisolated(unsafe) private var terminalQuitSignal: sig_atomic_t = 0

/// Gives the terminal back from a crash's signal handler: only async-signal-safe calls.
private func restoreTerminalAfterCrash() {
    guard terminalIsTaken == 1 else { return }
    _ = Glibc.write(STDOUT_FILENO, leaveTerminalSequence.utf8Start, leaveTerminalSequence.utf8CodeUnitCount)
    _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &savedTerminal)
}
