import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Entry text from standard input or the user's editor.
enum TextInput {
    /// Standard input when it is not a terminal; else the editor on an empty file, for the
    /// journal in `journalFolder`.
    static func fromStandardInputOrEditor(journalFolder: URL) throws -> String {
        if isatty(STDIN_FILENO) == 1 { return try fromEditor(initialText: "", journalFolder: journalFolder) }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw JournalError(.invalidInput, "standard input is not valid UTF-8")
        }
        return droppingOneNewline(text)
    }

    /// The text after the user edited `initialText` in the configuration's editor, $VISUAL,
    /// $EDITOR or vi, in a private folder (``EditingFolder``) removed afterwards. vi, vim and
    /// nvim are also told to keep no history of the edit (`-i NONE`: their registers and marks
    /// would hold the text).
    static func fromEditor(initialText: String, journalFolder: URL) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let configured = try ConfigurationFile.current.get().editor
        let editor =
            [configured, environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let program = editor.split(separator: " ").first.map { String($0.split(separator: "/").last ?? $0) } ?? ""
        let noHistory = ["vi", "vim", "nvim", "view", "gvim"].contains(program) ? " -i NONE" : ""
        let folder = try EditingFolder(text: initialText, journalFolder: journalFolder, environment: environment)
        defer { folder.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor)\(noHistory) \"$1\"", "editor", folder.file.path]
        do { try process.run() } catch {
            throw JournalError(.usage, "cannot start the editor \"\(editor)\": \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw JournalError(
                .invalidInput,
                "the editor \"\(editor)\" failed (status \(process.terminationStatus)); nothing was saved")
        }
        guard let data = folder.contents(), let text = String(validating: data, as: UTF8.self) else {
            throw JournalError(.invalidInput, "the edited text is not valid UTF-8; nothing was saved")
        }
        return droppingOneNewline(text)
    }

    /// Text without its last line's terminator ("\r\n" is one Character in Swift).
    private static func droppingOneNewline(_ text: String) -> String {
        text.last == "\n" || text.last == "\r\n" ? String(text.dropLast()) : text
    }
}
