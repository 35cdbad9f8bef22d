import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// The user's editor as a shell command, with what keeps an entry's text out of the files an
/// editor keeps elsewhere: vim and nvim, under whatever name they are reached (`vi`, `editor`,
/// `vim.basic`, a link of the user's), are told to keep no history (`-i NONE`: their registers
/// and marks would hold the text), and nvim to keep no swap file (`-n`: it keeps them in
/// `~/.local/state/nvim/swap`, not beside the file). vim's swap file lands beside the file, in
/// the private folder that is wiped.
struct EditorCommand {
    /// The command as configured: the configuration's editor, $VISUAL, $EDITOR, or vi.
    let command: String
    /// What the program is, as far as it matters here.
    let family: Family

    enum Family: Equatable {
        case vim
        case neovim
        case other
    }

    /// The command line that edits the file at `$1`. The shell runs the editor in its place
    /// (`exec`), so that a signal passed to it reaches the editor, not a shell that waits for it;
    /// a command that starts with a variable's assignment (`TERM=xterm vim`) keeps its shell.
    var shellLine: String {
        let start = command.split(separator: " ").first?.contains("=") == true ? "" : "exec "
        switch family {
        case .vim: return "\(start)\(command) -i NONE \"$1\""
        case .neovim: return "\(start)\(command) -i NONE -n \"$1\""
        case .other: return "\(start)\(command) \"$1\""
        }
    }

    /// The editor the configuration and `environment` name.
    static func current(environment: [String: String]) throws -> EditorCommand {
        let configured = try ConfigurationFile.current.get().editor
        let command =
            [configured, environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        return EditorCommand(command: command, family: family(of: command, environment: environment))
    }

    /// What the program of `command` (its first word) is: by the name of the file it resolves
    /// to (links followed: /usr/bin/vi → /etc/alternatives/vi → /usr/bin/vim.basic), or, when
    /// it is called or resolves to a name any editor may have (`vi`, `editor`), by what it says
    /// of itself with `--version`.
    static func family(of command: String, environment: [String: String]) -> Family {
        guard let program = command.split(separator: " ").first.map(String.init),
            let path = resolve(program, environment: environment)
        else { return .other }
        let name = URL(fileURLWithPath: path).lastPathComponent
        if name.hasPrefix("nvim") { return .neovim }
        if ["vim", "gvim", "rvim", "vimdiff"].contains(name) || name.hasPrefix("vim.") { return .vim }
        let anyEditors = ["vi", "ex", "view", "editor", "sensible-editor"]
        guard anyEditors.contains(name) || anyEditors.contains(URL(fileURLWithPath: program).lastPathComponent) else {
            return .other
        }
        return familyFromVersion(path)
    }

    /// The file `program` runs: itself when it has a slash, else the first executable of that
    /// name in `$PATH`, with every link followed.
    private static func resolve(_ program: String, environment: [String: String]) -> String? {
        let candidates =
            program.contains("/")
            ? [program]
            : (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { "\($0)/\(program)" }
        guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else { return nil }
        guard let resolved = realpath(found, nil) else { return found }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// vim or nvim when the program at `path` says so in the first line of `--version` (given
    /// two seconds, nothing on its standard input).
    private static func familyFromVersion(_ path: String) -> Family {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .other }
        let deadline = DispatchTime.now() + 2
        let read = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var firstLine = ""
        DispatchQueue.global().async {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            firstLine =
                String(decoding: data.prefix(200), as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            read.signal()
        }
        if read.wait(timeout: deadline) == .timedOut {
            process.terminate()
            return .other
        }
        process.waitUntilExit()
        if firstLine.hasPrefix("NVIM") { return .neovim }
        if firstLine.hasPrefix("VIM - Vi IMproved") { return .vim }
        return .other
    }
}
