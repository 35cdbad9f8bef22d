import Foundation
import GRDB
import JournalText

/// Each entry against its document in the search store, read side by side in number order: its
/// canonical text and text tags against its text, its document's URI, date, tokens and number
/// of words against the entry, and a document for every entry and no other. What the documents
/// say of the postings, prefix keys and days is tallied for the checks of those.
struct EntryDocumentCheck {
    /// The links the documents imply, for ``PostingCheck``, ``DateBucketCheck`` and
    /// ``DocumentLengthCheck``.
    struct Tallies {
        var tokens = LinkTally()
        var prefixKeys = LinkTally()
        var days = LinkTally()
        /// Each document's number of words (those of none left out), as (document, length).
        var lengths = LinkTally()
        /// The documents found for entries, and their words.
        var documents = 0
        var words = 0
    }

    let storeID: UUID
    let tokenTexts: [Int64: String]
    let prefixKeyIDs: [CodePointKey: Int64]
    /// The prefix keys that two tokens or more start with: those that must have a row (a key
    /// of one token may go without, its token's postings being its).
    let keysOfSeveralTokens: Set<CodePointKey>
    /// Entries the main store lost (``LostEntries``), reported as such rather than as
    /// documents of no entry.
    var lost: Set<Int64> = []

    /// Checks every entry in `mainDB` against `searchDB`; returns how many were checked and the
    /// tallies.
    func run(
        main mainDB: Database, search searchDB: Database, progress: ProgressHandler?, problems: inout ProblemLog
    ) throws -> (checked: Int, tallies: Tallies) {
        let total = try MainStore.count(in: mainDB)
        let entries = try MainStore.entriesInNumberOrder(in: mainDB)
        let documents = try SearchStore.documentsInNumberOrder(in: searchDB)
        let textTags = try MainStore.textTagsInNumberOrder(in: mainDB)
        var document = try documents.next()
        var tagRow = try textTags.next()
        var tallies = Tallies()
        var checked = 0
        while let entry = try entries.next() {
            let number = entry.number
            if entry.canonical != Fold.canonical(entry.text) {
                problems.add("canonical", "p\(number): its canonical text is not canonical(text)")
            }
            var storedTags = ""
            while let row = tagRow, row.entry <= number {
                if row.entry == number { storedTags = row.tags }
                tagRow = try textTags.next()
            }
            let tagsOfText = Tags.inText(entry.text).sorted { $0.name < $1.name }.map {
                $0.name + "\u{1E}" + $0.written
            }
            if storedTags != tagsOfText.joined(separator: "\u{1F}") {
                problems.add("tags", "p\(number): its tags written in the text are not those of its text")
            }
            while let orphan = document, orphan.number < number {
                reportOrphan(orphan.number, problems: &problems)
                document = try documents.next()
            }
            guard let found = document, found.number == number else {
                problems.add("missing", "p\(number) is not in the search store")
                continue
            }
            document = try documents.next()
            check(entry, against: found, tallies: &tallies, problems: &problems)
            checked += 1
            if checked % 10_000 == 0 { progress?(JournalProgress(phase: .verifying, done: checked, total: total)) }
        }
        while let orphan = document {
            reportOrphan(orphan.number, problems: &problems)
            document = try documents.next()
        }
        return (checked, tallies)
    }

    /// A document of no entry: a problem, unless its entry is one the main store lost (reported
    /// as such).
    private func reportOrphan(_ number: Int64, problems: inout ProblemLog) {
        guard !lost.contains(number) else { return }
        problems.add("orphan", "the search store has a document for p\(number), which the main store doesn't have")
    }

    /// One entry's document: URI, date, tokens, number of words, each token's positions and the
    /// prefix keys.
    private func check(
        _ entry: MainStore.StoredEntry, against document: SearchStore.StoredDocument, tallies: inout Tallies,
        problems: inout ProblemLog
    ) {
        let number = entry.number
        if document.uri != EntryID(storeID: storeID, number: number).uri {
            problems.add("uri", "p\(number): the search store names it \"\(document.uri)\"")
        }
        if document.date != entry.date { problems.add("date", "p\(number): the search store has another date for it") }
        tallies.days.add(owner: DateBuckets.day(of: entry.date), entry: number)
        let ids = DeltaList.decode(document.tokens)
        let indexed = ids.map { tokenTexts[$0] ?? "" }
        let (expected, order) = Tokens.withOrder(canonical: Fold.canonical(entry.text))
        if Set(indexed.map(CodePointKey.init)) != Set(expected.map(CodePointKey.init)) {
            problems.add("tokens", "p\(number): the search store's tokens are not tokens(e)")
        }
        tallies.documents += 1
        tallies.words += document.length
        if document.length > 0 { tallies.lengths.add(owner: number, entry: Int64(document.length)) }
        if document.length != order.count {
            problems.add(
                "length", "p\(number): the search store counts \(document.length) words in it, not \(order.count)")
        }
        // Each token's positions, as the entry's words in order give them.
        var positions = [[UInt32]](repeating: [], count: expected.count)
        for (position, token) in order.enumerated() { positions[Int(token)].append(UInt32(position)) }
        let expectedIndex = Dictionary(
            expected.enumerated().map { (CodePointKey($0.element), $0.offset) }, uniquingKeysWith: { first, _ in first }
        )
        // A key with positions has, in the entry, the union of its tokens' lists.
        var keyPositions: [CodePointKey: [UInt32]] = [:]
        for (id, text) in zip(ids, indexed) {
            let list = expectedIndex[CodePointKey(text)].map { positions[$0] }
            tallies.tokens.add(owner: id, entry: number, detail: LinkTally.positionsDigest(list ?? []))
            for key in Tokens.prefixKeys(of: [text]) where PostingOwner.keepsPositions(key: key) {
                keyPositions[CodePointKey(key), default: []] += list ?? []
            }
        }
        for key in Tokens.prefixKeys(of: indexed) {
            if let id = prefixKeyIDs[CodePointKey(key)] {
                let detail = keyPositions[CodePointKey(key)].map { LinkTally.positionsDigest($0.sorted()) } ?? 0
                tallies.prefixKeys.add(owner: id, entry: number, detail: detail)
            } else if keysOfSeveralTokens.contains(CodePointKey(key)) {
                problems.add("keys", "p\(number): its prefix key \"\(key)\" is missing")
            }
        }
    }

    /// The prefix keys that two or more of `tokens` start with.
    static func keysOfSeveralTokens(_ tokens: some Sequence<String>) -> Set<CodePointKey> {
        var seen = Set<CodePointKey>()
        var several = Set<CodePointKey>()
        for token in tokens {
            for key in Tokens.prefixKeys(of: [token]) where !seen.insert(CodePointKey(key)).inserted {
                several.insert(CodePointKey(key))
            }
        }
        return several
    }
}
