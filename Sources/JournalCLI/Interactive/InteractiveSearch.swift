import Foundation
import JournalKit

/// `journal search` on a terminal with no query, or with `--interactive`: the full-screen
/// search. One thread reads keys and draws; a ``LiveSearch`` session searches on its own, so
/// typing never waits for a search, and each answer wakes the loop to draw it.
struct InteractiveSearch {
    let journal: Journal
    var screen: SearchScreen

    /// How long a lone Escape waits for the rest of a sequence before it counts as the key.
    private static let escapeWait: Int32 = 30
    /// How often, in milliseconds, results found while the index was behind are searched again.
    private static let indexingRefresh: Int32 = 500
    /// How often, in milliseconds, an idle screen looks whether another process changed the
    /// journal (a write, an import whose indexing began or ended), to search again if so.
    private static let changeCheck: Int32 = 1_000

    /// Runs until the user quits (Esc, Ctrl-C) or a quit signal comes; the terminal is given
    /// back as it was on every way out.
    mutating func run(on terminal: FullScreenTerminal) throws {
        let inbox = AnswerInbox()
        let session = LiveSearch(journal: journal) { answer in
            inbox.put(answer)
            FullScreenTerminal.wake(.answer)
        }
        defer { session.close() }
        try terminal.take()
        defer { terminal.give() }
        var decoder = KeyDecoder()
        screen.searched(generation: session.submit(screen.request))
        draw(on: terminal)
        var seen = try? journal.indexStatus()
        while true {
            let timeout =
                decoder.isWaiting ? Self.escapeWait : screen.indexing != nil ? Self.indexingRefresh : Self.changeCheck
            let (bytes, wakes, inputClosed) = terminal.wait(timeout: timeout)
            if inputClosed || wakes.contains(.quit) { return }
            if bytes.isEmpty, wakes.isEmpty, !decoder.isWaiting {
                let status = try? journal.indexStatus()
                if screen.indexing != nil || status != seen {
                    seen = status
                    screen.searched(generation: session.submit(screen.request))
                }
            }
            if wakes.contains(.resize) {
                screen.resize(to: terminal.size)
                screen.searched(generation: session.submit(screen.request))
            }
            if wakes.contains(.answer), let answer = inbox.take() { screen.show(answer) }
            var keys = decoder.feed(bytes)
            if bytes.isEmpty && wakes.isEmpty && decoder.isWaiting { keys += decoder.flush() }
            for key in keys {
                switch screen.handle(key) {
                case .redraw: break
                case .search: screen.searched(generation: session.submit(screen.request))
                case .edit(let entry):
                    terminal.give()
                    screen.message = edit(entry)
                    try terminal.take()
                    screen.resize(to: terminal.size)
                    screen.searched(generation: session.submit(screen.request))
                case .act(let action):
                    screen.message = perform(action)
                    screen.searched(generation: session.submit(screen.request))
                case .quit: return
                }
            }
            draw(on: terminal)
        }
    }

    /// Opens `entry` in the user's editor and saves what changed; says what happened.
    private mutating func edit(_ entry: Entry) -> String {
        do {
            try journal.checkAcceptsChanges()
            let written = try TextInput.fromEditor(
                initialText: entry.text, journalFolder: journal.directory.url, encrypted: journal.isEncrypted)
            guard written.text != entry.text else {
                written.discard()
                return "\(entry.id.shortName) unchanged"
            }
            let edited = try written.save { text in
                try written.whileWriting { try journal.edit(entry.id, text: text, basedOn: entry) }
            }
            screen.replaceShownEntry(with: edited)
            return "edited \(edited.id.shortName)"
        } catch let error as JournalError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// Makes the change the user asked for, one write of the journal (another process sees it
    /// at once); says what was done, or why it failed.
    private mutating func perform(_ action: SearchScreen.EntryAction) -> String {
        do {
            switch action {
            case .setStarred(let entry, let starred):
                let changed = try journal.setStarred(starred, for: entry.id)
                screen.replaceShownEntry(with: changed)
                return "\(starred ? "starred" : "unstarred") \(changed.id.shortName)"
            case .changeTags(let entry, let adding, let removing):
                let (changed, kept) = try journal.changeTags(of: entry.id, adding: adding, removing: removing)
                screen.replaceShownEntry(with: changed)
                let tags = changed.tags.isEmpty ? "no tags" : EntryRendering.tagList(changed.tags)
                let written = kept.map { name in "#" + (changed.tags.first { $0.name == name }?.written ?? name) }
                let stays = kept.isEmpty ? "" : " (written in its text: \(written.joined(separator: " ")) stays)"
                return "\(changed.id.shortName): \(tags)\(stays)"
            case .delete(let entry):
                try journal.delete(entry.id)
                screen.leaveEntry(entry.id)
                return "deleted \(entry.id.shortName)"
            }
        } catch {
            return error.message
        }
    }

    /// The whole screen in one write: each line cleared before it is written (clearing after
    /// would erase a last column just written), the rows below cleared, the cursor placed.
    private func draw(on terminal: FullScreenTerminal) {
        let (lines, cursor) = screen.frame()
        var output = "\u{1B}[?25l\u{1B}[H"
        output += lines.map { "\u{1B}[2K" + $0 }.joined(separator: "\r\n")
        if lines.count < terminal.size.rows { output += "\u{1B}[\(lines.count + 1);1H\u{1B}[J" }
        if let cursor { output += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h" }
        terminal.write(output)
    }
}

/// The newest answer, handed from the session's queue to the event loop.
private final class AnswerInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: LiveSearch.Answer?

    func put(_ answer: LiveSearch.Answer) { lock.withLock { self.answer = answer } }

    func take() -> LiveSearch.Answer? {
        lock.withLock {
            defer { answer = nil }
            return answer
        }
    }
}
