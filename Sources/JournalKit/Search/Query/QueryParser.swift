import Foundation
import JournalText

/// The second step of reading a query: its items (``QueryLexer``) to a ``QueryTerm``.
///
/// `-` binds tightest, then `OR`, then juxtaposition (all must hold): `a b OR c -d` is
/// a AND (b OR c) AND NOT d. An `OR` without a term on both sides is the word "or"; an item
/// with nothing to search for, an empty group and a `)` without its `(` are dropped; a `(`
/// without its `)` closes at the end.
///
/// Invariant: each item is read once and a term is built once per item or group, so the time
/// is linear in the query's length; the depth of groups is bounded by the items, read with a
/// stack of its own rather than recursion, so that no query exhausts the thread's stack.
struct QueryParser {
    private let items: [QueryLexer.Item]
    private let now: Date
    private let givenTimeZone: TimeZone?
    private var index = 0

    /// A parser of `text`, reading its dates as of `now` in `timeZone` (nil: the current one,
    /// looked up only for a query that holds a date): it reads nothing else.
    init(_ text: String, now: Date, timeZone: TimeZone?) {
        items = QueryLexer.items(of: text)
        self.now = now
        givenTimeZone = timeZone
    }

    /// The zone dates are read in.
    private var timeZone: TimeZone { givenTimeZone ?? .current }

    /// What a sequence holds before its `OR`s are read: terms, and `OR` items.
    private enum Unit {
        case term(QueryTerm)
        case or
    }

    /// The term the whole query asks for, or nil when nothing is left to search for.
    mutating func parse() throws(QuerySyntaxError) -> QueryTerm? {
        // Each open group's units, and how many `-` apply to the group once it closes.
        var stack: [(units: [Unit], negations: Int)] = [([], 0)]
        func close() {
            let group = stack.removeLast()
            if let term = Self.combine(group.units) {
                stack[stack.count - 1].units.append(.term(Self.negated(term, group.negations)))
            }
        }
        while index < items.count {
            let item = items[index]
            index += 1
            switch item.kind {
            case .open:
                stack.append(([], 0))
            case .close:
                if stack.count > 1 { close() }
            case .phrase(let text):
                if let term = Self.phrase(text) { stack[stack.count - 1].units.append(.term(term)) }
            case .text("OR"):
                stack[stack.count - 1].units.append(.or)
            case .text(let text):
                switch try read(Substring(text), item: item) {
                case .term(let term): stack[stack.count - 1].units.append(.term(term))
                case .group(let negations): stack.append(([], negations))
                case nil: break
                }
            }
        }
        while stack.count > 1 { close() }
        return Self.combine(stack[0].units)
    }

    /// What a text item turned out to be: a term, or `-` applied to the group it opens.
    private enum Read {
        case term(QueryTerm)
        case group(negations: Int)
    }

    /// A text item (or what is left of one after `-`): leaving out, a tag, a field, or words.
    private mutating func read(_ written: Substring, item: QueryLexer.Item) throws(QuerySyntaxError) -> Read? {
        // Each leading `-` but a last one standing alone applies to the rest, read as an item.
        var text = written
        var negations = 0
        while text.first == "-", text.index(after: text.startIndex) < text.endIndex {
            text = text.dropFirst()
            negations += 1
        }
        if text == "-" {
            // A lone `-` applies to a phrase or a group right after it, with no space between.
            guard index < items.count, items[index].attached else { return nil }
            switch items[index].kind {
            case .phrase(let phrase):
                index += 1
                return Self.phrase(phrase).map { .term(Self.negated($0, negations + 1)) }
            case .open:
                index += 1
                return .group(negations: negations + 1)
            default:
                return nil
            }
        }
        return try term(of: text, item: item).map { .term(Self.negated($0, negations)) }
    }

    private mutating func term(of text: Substring, item: QueryLexer.Item) throws(QuerySyntaxError) -> QueryTerm? {
        if let name = Tags.named(byItem: text) { return .tag(name) }
        if let colon = text.firstIndex(of: ":"), let field = Field(rawValue: String(text[..<colon])) {
            return try read(field, value: text[text.index(after: colon)...], item: item)
        }
        return Self.words(Fold.canonical(String(text)))
    }

    private enum Field: String {
        case `is`, from, to, on
    }

    /// A field's value: the rest of the item, or the phrase right after the colon.
    private mutating func read(
        _ field: Field, value: Substring, item: QueryLexer.Item
    ) throws(QuerySyntaxError) -> QueryTerm {
        var value = String(value)
        var characters = item.characters
        if value.isEmpty, index < items.count, items[index].attached, case .phrase(let phrase) = items[index].kind {
            value = phrase
            characters = characters.lowerBound..<items[index].characters.upperBound
            index += 1
        }
        let written = field.rawValue + ":" + value
        if field == .is {
            guard Fold.canonical(value) == "starred" else {
                throw QuerySyntaxError(message: "\"\(written)\": is: knows only is:starred", characters: characters)
            }
            return .starred
        }
        if field == .on, Fold.canonical(value) == "this-day" {
            return .onThisDay(OnThisDay(JournalDate(now), timeZone: timeZone))
        }
        guard !value.isAllWhiteSpace else {
            throw QuerySyntaxError(
                message:
                    "\"\(written)\" needs a date after the colon (\(field.rawValue):2024-05, \(field.rawValue):\"last month\")",
                characters: characters)
        }
        let span: DatePhrase
        do { span = try DatePhrase(value, now: now, timeZone: timeZone) } catch {
            throw QuerySyntaxError(message: "\"\(written)\": \(error.message)", characters: characters)
        }
        switch field {
        case .from: return .dated(from: span.start, until: nil)
        case .to: return .dated(from: nil, until: span.end)
        case .on, .is: return .dated(from: span.start, until: span.end)
        }
    }

    /// A phrase's term: nothing for no words, a word for one, else the phrase.
    private static func phrase(_ text: String) -> QueryTerm? {
        let words = WordBreaker.words(in: Fold.canonical(text))
        return words.count > 1 ? .phrase(words) : words.first.map(QueryTerm.word)
    }

    /// A word item's term: each of its words required.
    private static func words(_ canonical: String) -> QueryTerm? {
        let words = WordBreaker.words(in: canonical)
        return words.count > 1 ? .all(words.map(QueryTerm.word)) : words.first.map(QueryTerm.word)
    }

    private static func negated(_ term: QueryTerm, _ count: Int) -> QueryTerm {
        var term = term
        for _ in 0..<count {
            if case .not(let inner) = term { term = inner } else { term = .not(term) }
        }
        return term
    }

    /// A sequence's term: its `OR`s joining the terms on their two sides (an `OR` without a
    /// term on both sides is the word "or"), and what results all required.
    private static func combine(_ units: [Unit]) -> QueryTerm? {
        var required: [QueryTerm] = []
        var alternatives: [QueryTerm] = []
        var joinsNext = false
        for (position, unit) in units.enumerated() {
            let term: QueryTerm
            switch unit {
            case .term(let found):
                term = found
            case .or:
                let joins =
                    position > 0 && position + 1 < units.count
                    && { if case .term = units[position - 1] { true } else { false } }()
                    && { if case .term = units[position + 1] { true } else { false } }()
                if joins {
                    joinsNext = true
                    continue
                }
                term = .word("or")
            }
            if !joinsNext, !alternatives.isEmpty {
                required.append(alternatives.count == 1 ? alternatives[0] : .any(alternatives))
                alternatives = []
            }
            joinsNext = false
            if case .any(let inner) = term { alternatives += inner } else { alternatives.append(term) }
        }
        if !alternatives.isEmpty { required.append(alternatives.count == 1 ? alternatives[0] : .any(alternatives)) }
        let flat = required.flatMap { term -> [QueryTerm] in if case .all(let inner) = term { inner } else { [term] } }
        return flat.count > 1 ? .all(flat) : flat.first
    }
}
