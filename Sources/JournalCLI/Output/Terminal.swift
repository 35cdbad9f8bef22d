import Foundation
import JournalKit
import TextReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One of the process's output streams, and what it can show: colour only on a terminal and
/// only when NO_COLOR is unset (https://no-color.org) and TERM is not "dumb", unless the
/// configuration file says `color = "always"` or `"never"`.
struct Terminal: Sendable {
    let descriptor: Int32
    let isTerminal: Bool
    let usesColor: Bool
    /// Columns available for a line (a full-screen program sets it again on a resize).
    var width: Int

    static let standardOutput = Terminal(descriptor: STDOUT_FILENO)
    static let standardError = Terminal(descriptor: STDERR_FILENO)
    /// A file: no colour.
    static let plain = Terminal(descriptor: -1)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) == 1
        let environment = ProcessEnvironment.variables
        switch (try? ConfigurationFile.current.get())?.color ?? .auto {
        case .auto: usesColor = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        case .always: usesColor = descriptor >= 0
        case .never: usesColor = false
        }
        var size = winsize()
        if isTerminal, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 20 ? $0 : nil } ?? 100
        }
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 && errno != EINTR { return }
                offset += max(0, written)
            }
        }
    }

    /// How text written to it may be styled.
    var style: TextStyle { TextStyle(usesColor: usesColor) }

    func highlight(_ text: String) -> String { style.highlight(text) }
    func dim(_ text: String) -> String { style.dim(text) }
    func bold(_ text: String) -> String { style.bold(text) }
}
