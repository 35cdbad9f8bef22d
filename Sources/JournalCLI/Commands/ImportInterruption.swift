import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C during an import: the process ends at once, as a kill would (SQLite keeps the steps
/// committed and rolls back the one under way), after a line saying where to look. What the
/// import left is not known at that instant (a step may be committing), so the line names the
/// command that tells, never a count.
enum ImportInterruption {
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    /// From now on, SIGINT prints the line and exits with status 130.
    static func sayWhereToLook() {
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            Terminal.standardError.write(
                "\njournal: import interrupted: journal import --status says what it left (an import that is pending goes on where it stopped when the same command is run again)\n"
            )
            _exit(130)
        }
        interrupt.resume()
        source = interrupt
    }
}
