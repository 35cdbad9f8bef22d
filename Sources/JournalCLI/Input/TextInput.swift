import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Entry text from standard input or the user's editor.
enum TextInput {
    /// Standard input when it is not a terminal; else the editor on an empty file.
    static func fromStandardInputOrEditor() throws -> String {
        if isatty(STDIN_FILENO) == 1 { return try fromEditor(initialText: "") }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw JournalError(.invalidInput, "standard input is not valid UTF-8")
        }
        return droppingOneNewline(text)
    }

    /// The text after the user edited `initialText` in the configuration's editor, $VISUAL,
    /// $EDITOR or vi.
    static func fromEditor(initialText: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let configured = try ConfigurationFile.current.get().editor
        let editor = [configured, environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(getpid())-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try Data(initialText.utf8).write(to: file, options: .atomic)
            _ = chmod(file.path, 0o600)
        } catch {
            throw JournalError(.store, "cannot write a temporary file for the editor: \(error.localizedDescription)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "editor", file.path]
        do { try process.run() } catch {
            throw JournalError(.usage, "cannot start the editor \"\(editor)\": \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw JournalError(.invalidInput, "the editor \"\(editor)\" failed (status \(process.terminationStatus)); nothing was saved")
        }
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(validating: data, as: UTF8.self) else {
            throw JournalError(.invalidInput, "the edited text is not valid UTF-8; nothing was saved")
        }
        return droppingOneNewline(text)
    }

    /// Text without its last line's terminator ("\r\n" is one Character in Swift).
    private static func droppingOneNewline(_ text: String) -> String {
        text.last == "\n" || text.last == "\r\n" ? String(text.dropLast()) : text
    }
}
