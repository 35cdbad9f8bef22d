import JournalKit
import JournalText
import TextReport

/// What the full-screen search shows and how keys change it: the query line, a status line,
/// then the results newest first; or one entry in full. It owns no terminal and no session:
/// ``handle(_:)`` says what the event loop must do, and ``frame()`` is the text of the screen.
struct SearchScreen {
    /// What the event loop does after a key.
    enum Action: Equatable {
        /// Redraw only.
        case redraw
        /// Search again for ``request``: the query, strategy or page changed.
        case search
        /// Open this entry in the editor, then search again.
        case edit(Entry)
        /// Make this change to an entry (one write of the journal), then search again.
        case act(EntryAction)
        case quit
    }

    /// A change the user asked for on the selected entry.
    enum EntryAction: Equatable {
        case setStarred(Entry, Bool)
        case changeTags(Entry, adding: [String], removing: [String])
        case delete(Entry)
    }

    /// A question on the status line about an entry, answered before any other key counts.
    private struct Prompt {
        enum Kind {
            /// Tags to add (`name`) and to take away (`-name`), separated by spaces.
            case tags
            /// Whether to delete the entry: `y` does.
            case delete
        }

        let kind: Kind
        let entry: Entry
        var line = QueryLine()
    }

    private enum Mode {
        case list
        /// An entry in full: its lines wrapped once to the width (an entry may be megabytes),
        /// and the first one on the screen.
        case entry(Entry, lines: [String], firstLine: Int)
    }

    private(set) var query: QueryLine
    private let strategies: [SearchStrategy]
    private var strategyIndex: Int
    private let filter: EntryFilter
    private let filterSummary: String
    private var terminal: Terminal
    private var rows: Int
    private var mode = Mode.list
    /// The last answer with results: a query that fails (a date not understood) leaves them.
    private var answer: LiveSearch.Answer?
    /// Why the latest query failed, shown on the status line until one succeeds.
    private var failure: JournalError?
    /// The generation of the latest answer, with results or not.
    private var answered = 0
    private var submitted = 0
    private var selected = 0
    private var firstRow = 0
    private var limit: Int
    /// The loaded entries as result lines, drawn once per answer and size rather than on every
    /// frame (a key draws two: the query as typed, then its answer).
    private var rendered: [String] = []
    /// A note for the status line until the next key: what an edit did, or why it failed.
    var message: String?
    /// The question being asked, if any.
    private var prompt: Prompt?

    /// The order of the results, which Ctrl-O changes.
    private var order: SearchOrder

    init(
        query: String, strategy: SearchStrategy, order: SearchOrder = .newest, filter: EntryFilter,
        filterSummary: String, terminal: Terminal, size: (rows: Int, columns: Int)
    ) {
        self.query = QueryLine(query)
        self.order = order
        strategies = SearchStrategies.all
        strategyIndex = strategies.firstIndex(of: strategy) ?? 0
        self.filter = filter
        self.filterSummary = filterSummary
        self.terminal = terminal
        rows = size.rows
        limit = max(1, size.rows - 2)
        self.terminal.width = size.columns
    }

    /// The search the screen wants now.
    var request: LiveSearch.Request {
        LiveSearch.Request(
            query: .typed(query.text, filter: filter), strategy: strategies[strategyIndex], limit: limit,
            order: order, highlightWindow: terminal.width)
    }

    /// Rows of results on the screen.
    private var pageSize: Int { max(1, rows - 2) }

    private var entries: [Entry] {
        guard case .success(let results)? = answer?.results else { return [] }
        return results.entries
    }

    mutating func searched(generation: Int) { submitted = generation }

    mutating func show(_ answer: LiveSearch.Answer) {
        answered = answer.generation
        if case .failure(let error) = answer.results, self.answer != nil, error.kind == .usage {
            failure = error
            render()
            return
        }
        failure = nil
        self.answer = answer
        selected = min(selected, max(0, entries.count - 1))
        scrollToSelection()
        render()
    }

    /// A new size; the screen then wants a search (``request``) that fills it.
    mutating func resize(to size: (rows: Int, columns: Int)) {
        rows = size.rows
        terminal.width = size.columns
        limit = max(limit, pageSize)
        scrollToSelection()
        render()
        if case .entry(let entry, _, let firstLine) = mode {
            mode = .entry(entry, lines: entryLines(entry), firstLine: firstLine)
        }
    }

    private mutating func render() {
        var lineTerminal = terminal
        lineTerminal.width = terminal.width - 2
        let highlights = answer?.highlights ?? []
        rendered = entries.indices.map { row in
            EntryRendering.line(
                entries[row], highlights: highlights.indices.contains(row) ? highlights[row] : [],
                terminal: lineTerminal, withTags: true)
        }
    }

    /// Puts an edited entry in place of the one shown in full.
    mutating func replaceShownEntry(with entry: Entry) {
        if case .entry(let shown, _, let firstLine) = mode, shown.id == entry.id {
            mode = .entry(entry, lines: entryLines(entry), firstLine: firstLine)
        }
    }

    /// Goes back to the list when the entry shown in full is `id` (it was deleted).
    mutating func leaveEntry(_ id: EntryID) {
        if case .entry(let shown, _, _) = mode, shown.id == id { mode = .list }
    }

    mutating func handle(_ key: Key) -> Action {
        message = nil
        if key == .control("c") { return .quit }
        if prompt != nil { return answerPrompt(key) }
        switch mode {
        case .list: return handleInList(key)
        case .entry(let entry, let lines, let firstLine):
            return handleInEntry(key, entry: entry, lineCount: lines.count, firstLine: firstLine)
        }
    }

    private mutating func handleInList(_ key: Key) -> Action {
        let before = query
        switch key {
        case .text(let typed): query.insert(typed)
        case .backspace: query.deleteBackward()
        case .delete, .control("d"): query.deleteForward()
        case .control("u"): query.clear()
        case .control("w"): query.deleteWordBackward()
        case .left, .control("b"): query.moveLeft()
        case .right, .control("f"): query.moveRight()
        case .home, .control("a"): query.moveToStart()
        case .end: query.moveToEnd()
        case .up, .control("p"), .control("k"): return move(by: -1)
        case .down, .control("n"), .control("j"): return move(by: 1)
        case .pageUp: return move(by: -pageSize)
        case .pageDown: return move(by: pageSize)
        case .tab, .backTab:
            strategyIndex = (strategyIndex + (key == .tab ? 1 : strategies.count - 1)) % strategies.count
            return .search
        case .control("o"):
            // Newest first, most relevant first, oldest first, and round again.
            order = [.newest: .relevance, .relevance: .oldest, .oldest: .newest][order] ?? .newest
            selected = 0
            firstRow = 0
            return .search
        case .enter:
            guard entries.indices.contains(selected) else { return .redraw }
            mode = .entry(entries[selected], lines: entryLines(entries[selected]), firstLine: 0)
        case .control("e"), .control("s"), .control("t"), .control("x"):
            guard entries.indices.contains(selected) else { return .redraw }
            return act(on: entries[selected], key: key)
        case .escape: return .quit
        default: break
        }
        guard query.text != before.text else { return .redraw }
        selected = 0
        firstRow = 0
        limit = pageSize
        return .search
    }

    /// Moves the selection; asks for more entries when it nears the end of those loaded.
    private mutating func move(by offset: Int) -> Action {
        selected = max(0, min(selected + offset, entries.count - 1))
        scrollToSelection()
        guard case .success(let results)? = answer?.results, results.total > entries.count,
            selected + pageSize >= entries.count, limit <= entries.count
        else { return .redraw }
        limit = entries.count + pageSize * 2
        return .search
    }

    private mutating func scrollToSelection() {
        if selected < firstRow { firstRow = selected }
        if selected >= firstRow + pageSize { firstRow = selected - pageSize + 1 }
        firstRow = max(0, min(firstRow, max(0, entries.count - pageSize)))
    }

    private mutating func handleInEntry(_ key: Key, entry: Entry, lineCount: Int, firstLine: Int) -> Action {
        let page = max(1, rows - 1)
        let last = max(0, lineCount - page)
        var line = firstLine
        switch key {
        case .escape, .text("q"): mode = .list
        case .up, .control("p"), .control("k"), .text("k"): line -= 1
        case .down, .control("n"), .control("j"), .text("j"), .enter: line += 1
        case .pageUp, .text("b"): line -= page
        case .pageDown, .text(" "): line += page
        case .home, .text("g"): line = 0
        case .end, .text("G"): line = last
        case .control("e"), .text("e"), .control("s"), .text("s"), .control("t"), .text("t"), .control("x"), .text("d"):
            return act(on: entry, key: key)
        default: break
        }
        if case .entry(_, let lines, _) = mode {
            mode = .entry(entry, lines: lines, firstLine: max(0, min(line, last)))
        }
        return .redraw
    }

    // MARK: Acting on an entry

    /// Ctrl-E (e) edits, Ctrl-S (s) stars or unstars at once, Ctrl-T (t) asks for tags,
    /// Ctrl-X (d) asks whether to delete.
    private mutating func act(on entry: Entry, key: Key) -> Action {
        switch key {
        case .control("e"), .text("e"): return .edit(entry)
        case .control("s"), .text("s"): return .act(.setStarred(entry, !entry.starred))
        case .control("t"), .text("t"): prompt = Prompt(kind: .tags, entry: entry)
        default: prompt = Prompt(kind: .delete, entry: entry)
        }
        return .redraw
    }

    /// A key while a question is asked: the tags typed, Enter to apply them; `y` to delete;
    /// Esc, or any other answer to the deletion, changes nothing.
    private mutating func answerPrompt(_ key: Key) -> Action {
        guard var prompt else { return .redraw }
        if prompt.kind == .delete {
            self.prompt = nil
            guard key == .text("y") || key == .text("Y") else {
                message = "\(prompt.entry.id.shortName) kept"
                return .redraw
            }
            return .act(.delete(prompt.entry))
        }
        switch key {
        case .escape:
            self.prompt = nil
            message = "tags of \(prompt.entry.id.shortName) unchanged"
            return .redraw
        case .enter:
            let words = prompt.line.text.split(whereSeparator: \.isWhitespace).map(String.init)
            let removing = words.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
            let adding = words.filter { !$0.hasPrefix("-") }
            do {
                _ = try NewEntry.tagNames(adding + removing)
            } catch {
                message = error.message
                return .redraw
            }
            self.prompt = nil
            guard !words.isEmpty else {
                message = "tags of \(prompt.entry.id.shortName) unchanged"
                return .redraw
            }
            return .act(.changeTags(prompt.entry, adding: adding, removing: removing))
        case .text(let typed): prompt.line.insert(typed)
        case .backspace: prompt.line.deleteBackward()
        case .delete, .control("d"): prompt.line.deleteForward()
        case .control("u"): prompt.line.clear()
        case .control("w"): prompt.line.deleteWordBackward()
        case .left, .control("b"): prompt.line.moveLeft()
        case .right, .control("f"): prompt.line.moveRight()
        case .home, .control("a"): prompt.line.moveToStart()
        case .end: prompt.line.moveToEnd()
        default: break
        }
        self.prompt = prompt
        return .redraw
    }

    /// The question on one line and where the cursor goes in it (nil: after the question).
    private func promptLine(_ prompt: Prompt) -> (text: String, cursor: Int?) {
        let name = prompt.entry.id.shortName
        switch prompt.kind {
        case .delete:
            let question = "delete \(name)? y deletes it, any other key keeps it "
            return (terminal.highlight(DisplayWidth.clip(question, to: terminal.width)), nil)
        case .tags:
            let question = "tags for \(name) (name adds, -name removes, Enter, Esc): "
            let typed = prompt.line.text.withControlPictures(keepingNewlines: false)
            let line = DisplayWidth.clip(question + typed, to: terminal.width)
            let before = String(prompt.line.beforeCursor).withControlPictures(keepingNewlines: false)
            return (terminal.bold(line), min(terminal.width - 1, DisplayWidth.of(question + before)))
        }
    }

    // MARK: Drawing

    /// The screen's lines (each within the width) and where the cursor goes (nil: hidden).
    func frame() -> (lines: [String], cursor: (row: Int, column: Int)?) {
        var (lines, cursor): ([String], (row: Int, column: Int)?)
        let promptRow: Int
        switch mode {
        case .list:
            (lines, cursor) = listFrame()
            promptRow = 1
        case .entry(let entry, let shown, let firstLine):
            (lines, cursor) = (entryFrame(entry, lines: shown, firstLine: firstLine), nil)
            promptRow = lines.count - 1
        }
        guard let prompt, lines.indices.contains(promptRow) else { return (lines, cursor) }
        let (text, column) = promptLine(prompt)
        lines[promptRow] = text
        return (lines, column.map { (promptRow, $0) })
    }

    private func listFrame() -> (lines: [String], cursor: (row: Int, column: Int)?) {
        let width = terminal.width
        let prompt = terminal.bold("> ")
        // The query's tail when it is wider than the line, so that the cursor stays in view.
        var shown = String(query.beforeCursor)
        var cut = false
        while DisplayWidth.of(shown) > width - 4, !shown.isEmpty {
            shown.removeFirst()
            cut = true
        }
        let beforeCursor = (cut ? "…" : "") + shown.withControlPictures(keepingNewlines: false)
        let afterCursor = String(query.text.dropFirst(query.cursor)).withControlPictures(keepingNewlines: false)
        let queryLine = prompt + DisplayWidth.clip(beforeCursor + afterCursor, to: width - 2)
        var lines = [queryLine, statusLine()]
        for row in firstRow..<min(rendered.count, firstRow + pageSize) {
            lines.append((row == selected ? terminal.highlight("▌") + " " : "  ") + rendered[row])
        }
        return (lines, (0, 2 + DisplayWidth.of(beforeCursor)))
    }

    /// How far the index was behind when the shown results were found: while it is, they are
    /// searched again now and then, so that they follow it until it is done.
    var indexing: IndexingProgress? {
        guard case .success(let results)? = answer?.results else { return nil }
        return results.indexing
    }

    /// "20 of 1,234 entries · prefix · 0.41 ms", what is under way, what an edit did, and the
    /// filters, cut to the width (what says most comes first).
    private func statusLine() -> String {
        var parts: [(text: String, stands: Bool)] = []
        switch answer?.results {
        case .success(let results)? where answer?.totalFollows == true:
            parts.append(("the newest \(Formatting.grouped(results.entries.count))", false))
            parts.append(("counting…", true))
        case .success(let results)?:
            parts.append((EntryRendering.summary(shown: results.entries.count, total: results.total, offset: 0), false))
        case .failure(let error)?:
            parts.append((error.message, true))
        case nil:
            parts.append(("…", false))
        }
        parts.append((strategies[strategyIndex].name, false))
        switch order {
        case .newest: break
        case .oldest: parts.append(("oldest first", false))
        case .relevance: parts.append(("most relevant first", false))
        }
        if let answer { parts.append((Formatting.milliseconds(answer.seconds), false)) }
        if let indexing {
            let pending = Formatting.grouped(indexing.pendingEntries)
            parts.append(
                indexing.isRebuilding
                    ? ("rebuilding the index, \(pending) to go", true)
                    : ("indexing \(Formatting.grouped(indexing.indexedEntries)) of \(pending) new: not shown yet", true)
            )
        }
        if submitted > answered { parts.append(("searching…", true)) }
        if let failure { parts.append((failure.message, true)) }
        if let message { parts.append((message, true)) }
        if !filterSummary.isEmpty { parts.append((filterSummary, false)) }
        var line = ""
        var room = terminal.width
        for (index, part) in parts.enumerated() where room > 0 {
            let text = DisplayWidth.clip((index == 0 ? "" : " · ") + part.text, to: room)
            room -= DisplayWidth.of(text)
            line += part.stands ? terminal.highlight(text) : terminal.dim(text)
        }
        return line
    }

    private func entryFrame(_ entry: Entry, lines: [String], firstLine: Int) -> [String] {
        let page = max(1, rows - 1)
        var shown = Array(lines.dropFirst(firstLine).prefix(page))
        shown += Array(repeating: "", count: page - shown.count)
        let span =
            lines.isEmpty ? "" : "lines \(firstLine + 1)–\(min(lines.count, firstLine + page)) of \(lines.count) · "
        let status = "\(entry.id.shortName) · \(span)Esc back · e edit · s star · t tags · d delete · Ctrl-C quit"
        return shown + [
            terminal.dim(DisplayWidth.clip(message.map { "\($0) · " + status } ?? status, to: terminal.width))
        ]
    }

    /// The entry as `journal show` prints it, wrapped to the width.
    private func entryLines(_ entry: Entry) -> [String] {
        let width = max(10, terminal.width)
        var lines = [
            terminal.bold("\(entry.id.shortName)  \(entry.date.localDayAndMinute)\(entry.starred ? "  ★" : "")")
        ]
        lines.append(terminal.dim(DisplayWidth.clip(entry.id.uri, to: width)))
        if !entry.tags.isEmpty {
            lines.append(terminal.dim(DisplayWidth.clip(EntryRendering.tagList(entry.tags), to: width)))
        }
        lines.append("")
        for paragraph in entry.text.withControlPictures(keepingNewlines: true).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            lines += Self.wrap(paragraph.replacingOccurrences(of: "\t", with: "    "), width: width)
        }
        return lines
    }

    /// A paragraph in lines of at most `width` columns, broken after spaces where it can be.
    static func wrap(_ paragraph: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        var lastSpace: (index: String.Index, used: Int)?
        for character in paragraph {
            let columns = DisplayWidth.of(character)
            if used + columns > width {
                if let space = lastSpace, space.index < line.endIndex {
                    let rest = String(line[line.index(after: space.index)...])
                    lines.append(String(line[..<space.index]))
                    line = rest
                    used = DisplayWidth.of(rest)
                } else {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                lastSpace = nil
            }
            if character == " " { lastSpace = (line.endIndex, used) }
            line.append(character)
            used += columns
        }
        lines.append(line)
        return lines
    }
}
