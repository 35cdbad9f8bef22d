import JournalText

/// The first step of reading a query: its items, left to right. White space separates items; a
/// double quote (`"`, `“` or `”`) starts a phrase that runs to the next one or to the end; `(`
/// and `)` outside a phrase are items of their own. Each item knows whether white space stood
/// before it, which decides what a lone `-` or a `from:` applies to.
///
/// Invariant: one pass over the characters, so the time is linear in the query's length.
struct QueryLexer {
    enum Kind: Equatable {
        /// A run of characters with no white space, quote or bracket.
        case text(String)
        /// The text between double quotes (the closing one may be missing).
        case phrase(String)
        case open, close
    }

    struct Item: Equatable {
        let kind: Kind
        /// Where the item stands in the query, in characters.
        let characters: Range<Int>
        /// Whether the item follows the previous one with no white space between them.
        let attached: Bool
    }

    static func items(of text: String) -> [Item] {
        var items: [Item] = []
        var current = ""
        var currentStart = 0
        var inPhrase = false
        var attached = false
        var position = 0
        func finish(_ kind: Kind, from start: Int, to end: Int) {
            items.append(Item(kind: kind, characters: start..<end, attached: attached && !items.isEmpty))
            attached = true
        }
        func finishText(at end: Int) {
            guard !current.isEmpty else { return }
            finish(.text(current), from: currentStart, to: end)
            current = ""
        }
        for character in text {
            defer { position += 1 }
            if inPhrase {
                if isQuote(character) {
                    finish(.phrase(current), from: currentStart, to: position + 1)
                    current = ""
                    inPhrase = false
                } else {
                    current.append(character)
                }
                continue
            }
            if character.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                finishText(at: position)
                attached = false
            } else if isQuote(character) {
                finishText(at: position)
                inPhrase = true
                currentStart = position
            } else if character == "(" || character == ")" {
                finishText(at: position)
                finish(character == "(" ? .open : .close, from: position, to: position + 1)
            } else {
                if current.isEmpty { currentStart = position }
                current.append(character)
            }
        }
        if inPhrase {
            finish(.phrase(current), from: currentStart, to: position)
        } else {
            finishText(at: position)
        }
        return items
    }

    private static func isQuote(_ character: Character) -> Bool {
        character == "\"" || character == "\u{201C}" || character == "\u{201D}"
    }
}
