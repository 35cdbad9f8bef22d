import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a separate process, as a user would, and measures it: wall-clock time
/// and peak resident memory (from `wait4`'s resource usage, so the child's own peak).
public struct ChildProcess {
    /// How a child process ended, and what it cost.
    public struct Outcome {
        /// Its exit status.
        public let status: Int32
        /// Wall-clock time from start to exit.
        public let seconds: Double
        /// Its peak resident memory.
        public let peakBytes: Int
        /// Standard output, when it was captured.
        public let output: Data
    }

    /// Runs `executable` with `arguments` and this process's environment with `environment`
    /// added; standard output is captured when `captureOutput`, discarded otherwise; standard
    /// error goes to `errorFile` (replaced) when given, and is discarded otherwise (the
    /// benchmark shows its own progress).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = false,
        errorFile: URL? = nil
    ) throws(JournalError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipe: [Int32] = [-1, -1]
        if captureOutput {
            guard Glibc.pipe(&pipe) == 0 else {
                throw JournalError(.store, "cannot create a pipe: \(String(cString: strerror(errno)))")
            }
            posix_spawn_file_actions_adddup2(&actions, pipe[1], STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(
            &actions, STDERR_FILENO, errorFile?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw JournalError(.store, "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var output = Data()
        if captureOutput {
            close(pipe[1])
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(pipe[0], &chunk, chunk.count)
                if count > 0 {
                    output.append(contentsOf: chunk[..<count])
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = secondsSince(start)
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: exitStatus, seconds: seconds, peakBytes: Int(usage.ru_maxrss) * 1024, output: output)
    }

    /// The path of the running `journal` executable, to run it again as a child.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs the `journal` executable with `arguments`, its standard error kept in `errorFile`
    /// meanwhile; an error that ends with what the command itself said last when it fails.
    public static func journal(_ executable: String, _ arguments: [String], errorFile: URL) throws -> Outcome {
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let outcome = try run(executable, arguments, errorFile: errorFile)
        guard outcome.status == 0 else {
            let said = (try? String(contentsOf: errorFile, encoding: .utf8))?.split(separator: "\n").last.map {
                ": " + ($0.hasPrefix("journal: ") ? $0.dropFirst("journal: ".count) : $0)
            }
            let command = arguments.first == "--store" ? arguments.dropFirst(2) : arguments[...]
            throw JournalError(
                .invalidInput,
                "journal \(command.joined(separator: " ")) failed (exit status \(outcome.status))\(said ?? "")")
        }
        return outcome
    }

    /// The first executable called `name` on `PATH`.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
