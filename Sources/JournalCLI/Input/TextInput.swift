import Foundation
import JournalKit

#if canImport(Glibc)
    import Glibc
#endif

/// Entry text from standard input or the user's editor.
enum TextInput {
    /// Whether standard input is a terminal: text then comes from the editor.
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Standard input, whole, as UTF-8, one trailing newline dropped.
    static func fromStandardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw JournalError(.invalidInput, "standard input is not valid UTF-8")
        }
        return droppingOneNewline(text)
    }

    /// The text after the user edited `initialText` in their editor (``EditorCommand``), in a
    /// private folder (``EditingFolder``) for the journal in `journalFolder`, which stays until
    /// the text is saved (``EditedText/save(_:)``). From the moment the editor starts, TERM and
    /// HUP (and INT once the editor has closed) end the process as ``EditedText`` says.
    static func fromEditor(initialText: String, journalFolder: URL, encrypted: Bool) throws -> EditedText {
        let environment = ProcessEnvironment.variables
        let editor = try EditorCommand.current(environment: environment)
        let folder = try EditingFolder(text: initialText, journalFolder: journalFolder, environment: environment)
        let signals = EditSignals(folder: folder, encrypted: encrypted)
        let process: EditorProcess
        do {
            process = try signals.start(editor.shellLine, file: folder.file.path)
        } catch {
            signals.end()
            folder.remove()
            throw JournalError(.usage, "cannot start the editor \"\(editor.command)\": \(error.message)")
        }
        let status = process.waitForExit()
        signals.editorClosed()
        guard status == 0 else {
            signals.end()
            folder.remove()
            throw JournalError(
                .invalidInput, "the editor \"\(editor.command)\" failed (status \(status)); nothing was saved")
        }
        guard let data = folder.contents(), let text = String(validating: data, as: UTF8.self) else {
            signals.end()
            folder.remove()
            throw JournalError(.invalidInput, "the edited text is not valid UTF-8; nothing was saved")
        }
        return EditedText(text: droppingOneNewline(text), folder: folder, signals: signals)
    }

    /// Text without its last line's terminator ("\r\n" is one Character in Swift).
    private static func droppingOneNewline(_ text: String) -> String {
        text.last == "\n" || text.last == "\r\n" ? String(text.dropLast()) : text
    }
}

/// What the user wrote in the editor, still in its private folder: removed once the text is
/// saved, kept (and its path told) when saving fails.
final class EditedText {
    /// The text, its one trailing newline dropped.
    let text: String
    private let folder: EditingFolder
    private let signals: EditSignals

    fileprivate init(text: String, folder: EditingFolder, signals: EditSignals) {
        self.text = text
        self.folder = folder
        self.signals = signals
    }

    /// Runs `save`, which saves the text (its write inside ``whileWriting(_:)``). When it
    /// returns, the folder is removed; when it throws, the folder is kept and the error says
    /// where the text is.
    func save<T>(_ save: (String) throws -> T) throws -> T {
        do {
            let result = try save(text)
            folder.remove()
            signals.end()
            return result
        } catch {
            let kept = folder.keep()
            signals.end()
            let failure = error as? JournalError ?? JournalError(.store, "\(error)")
            throw JournalError(
                failure.kind, EditingFolder.keptLine(kept, cause: "\(failure.message); nothing was saved"),
                entry: failure.entry, file: failure.file)
        }
    }

    /// Runs `body`, the write that saves the text: a signal meanwhile waits for it to end, so
    /// that what is said of the text (saved, or kept) is true.
    func whileWriting<T>(_ body: () throws -> T) rethrows -> T {
        try signals.writing(body)
    }

    /// Removes the folder: the text needs no saving (nothing changed).
    func discard() {
        folder.remove()
        signals.end()
    }
}

/// TERM, HUP and INT while an entry is edited and saved. While the editor runs, INT is the
/// editor's (Ctrl-C in vim reaches every process of the terminal's foreground group) and is
/// ignored here; TERM and HUP are passed to the editor. Then, unless a write is under way (the
/// signal waits for it to end), the process ends with 128 + the signal's number, and the text:
/// in an encrypted journal, wiped and removed, as an encrypted journal keeps no entry in the
/// clear; in a plain one, kept, its path told.
private final class EditSignals: @unchecked Sendable {
    private let folder: EditingFolder
    private let encrypted: Bool
    private let lock = NSLock()
    private var editor: EditorProcess?
    private var isWriting = false
    private var pending: Int32?
    private var ended = false
    private var finishing = false
    private var sources: [DispatchSourceSignal] = []
    private static let handled = [SIGTERM, SIGHUP, SIGINT]

    init(folder: EditingFolder, encrypted: Bool) {
        self.folder = folder
        self.encrypted = encrypted
        for number in Self.handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Starts the editor (``EditorProcess``): until ``editorClosed()``, TERM and HUP are passed
    /// on to it, and act once it has closed.
    func start(_ shellLine: String, file: String) throws(JournalError) -> EditorProcess {
        lock.lock()
        defer { lock.unlock() }
        let process = try EditorProcess.start(shellLine, file: file)
        editor = process
        return process
    }

    /// The editor has closed: a TERM or HUP it was passed acts now.
    func editorClosed() {
        let signal: Int32? = lock.withLock {
            editor = nil
            return pending
        }
        if let signal { finish(signal) }
    }

    func writing<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock { isWriting = true }
        defer {
            let signal: Int32? = lock.withLock {
                isWriting = false
                return pending
            }
            if let signal { finish(signal) }
        }
        return try body()
    }

    /// Stops handling the signals: they act as they did before the edit.
    func end() {
        lock.withLock { ended = true }
        for source in sources { source.cancel() }
        for number in Self.handled { signal(number, SIG_DFL) }
    }

    private func received(_ number: Int32) {
        let editing: EditorProcess?? = lock.withLock {
            if ended { return .none }
            if let editor {
                guard number != SIGINT else { return .none }
                kill(editor.identifier, number)
                pending = pending ?? number
                return .some(editor)
            }
            if isWriting {
                pending = pending ?? number
                return .none
            }
            return .some(nil)
        }
        guard case .some(let editor) = editing else { return }
        // An editor passed the signal may take a moment to close (vim preserves its buffer); one
        // that does not close (a shell waiting for its child) is not waited for longer.
        if editor != nil {
            let deadline = Date().addingTimeInterval(1)
            while lock.withLock({ self.editor != nil }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        finish(number)
    }

    /// Ends the process after a signal, saying what became of the text: once, whichever thread
    /// comes first.
    private func finish(_ number: Int32) {
        guard
            lock.withLock({ () -> Bool in
                defer { finishing = true }
                return !finishing
            })
        else { return }
        if encrypted {
            folder.remove()
            Terminal.standardError.write(
                "\njournal: interrupted: nothing was saved, and the text was removed (an encrypted journal keeps no entry in the clear)\n"
            )
        } else {
            let kept = folder.keep()
            Terminal.standardError.write("\njournal: interrupted: nothing was saved; the text is kept in \(kept)\n")
        }
        _exit(128 + number)
    }
}
