import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The user's editor, run as a shell runs a job in the foreground: in the terminal's
/// foreground process group, reading the terminal, every signal at its default.
///
/// Foundation's `Process` starts its child in a process group of its own, with the terminal's
/// job-control signals ignored: a terminal editor is then in the background, its reads of the
/// keyboard fail (vim: "Error reading input, exiting…"), and nothing can be typed.
struct EditorProcess {
    /// The editor's shell.
    let identifier: pid_t

    /// Starts `/bin/sh -c shellLine editor file`, with this process's environment and standard
    /// streams.
    static func start(_ shellLine: String, file: String) throws(JournalError) -> EditorProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var every = sigset_t()
        sigfillset(&every)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = ["/bin/sh", "-c", shellLine, "editor", file]
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var identifier: pid_t = 0
        let result = posix_spawn(&identifier, "/bin/sh", nil, &attributes, &pointers, environ)
        guard result == 0 else {
            throw JournalError(.usage, "cannot start the editor: \(String(cString: strerror(result)))")
        }
        return EditorProcess(identifier: identifier)
    }

    /// Waits for the editor to end: its exit status, or 128 + the signal that ended it.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(identifier, &status, 0) < 0 {
            guard errno == EINTR else { return 1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
