/// The query being typed, and where the cursor is in it (in characters).
struct QueryLine: Equatable {
    private(set) var text = ""
    private(set) var cursor = 0

    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// The text before the cursor, for placing the terminal's cursor.
    var beforeCursor: Substring { text.prefix(cursor) }

    mutating func insert(_ typed: String) {
        let index = text.index(text.startIndex, offsetBy: cursor)
        text.insert(contentsOf: typed, at: index)
        cursor += typed.count
    }

    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        text.remove(at: text.index(text.startIndex, offsetBy: cursor - 1))
        cursor -= 1
    }

    mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: text.index(text.startIndex, offsetBy: cursor))
    }

    /// Ctrl-W: the word before the cursor, and the spaces after it.
    mutating func deleteWordBackward() {
        var start = cursor
        let characters = Array(text)
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        text = String(characters[..<start] + characters[cursor...])
        cursor = start
    }

    mutating func clear() { self = QueryLine() }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(text.count, cursor + 1) }
    mutating func moveToStart() { cursor = 0 }
    mutating func moveToEnd() { cursor = text.count }
}
