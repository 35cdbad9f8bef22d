import Foundation
import GRDB

/// What the main store lost, as far as the search store knows it: when the search store has
/// applied changes the main store's history does not have (its file damaged, or restored from
/// an older copy), the entries it holds that the main store lacks, each with its date and the words the search
/// store keeps of it. What the user is told, on opening the journal and by `journal verify`.
///
/// An edit or a delete among the changes lost leaves the entry in the main store as it was
/// before: `journal verify` names those as entries whose words or dates disagree.
public struct LostEntries: Sendable, Equatable, Codable {
    /// One entry the main store lacks.
    public struct Entry: Sendable, Equatable, Codable {
        /// The number of its URI.
        public let number: Int64
        /// Its date, as the search store holds it.
        public let date: JournalDate?
        /// Its distinct words as the search store holds them (canonical: folded, in no order).
        public let words: [String]
    }

    /// The changes lost: after the newest the main store holds, up to the last the search
    /// store applied.
    public let changes: ClosedRange<Int64>
    /// The entries lost, in number order.
    public let entries: [Entry]

    /// Reads them from `mainDB` and `searchDB`, for changes `latest + 1 ... applied`.
    static func find(
        applied: Int64, latest: Int64, main mainDB: Database, search searchDB: Database
    ) throws
        -> LostEntries
    {
        let numbers = try MainStore.numbersInOrder(in: mainDB)
        let documents = try SearchStore.documentSummariesInNumberOrder(in: searchDB)
        var number = try numbers.next()
        var lost: [(number: Int64, date: Int64?, tokens: Data)] = []
        while let document = try documents.next() {
            while let current = number, current < document.number { number = try numbers.next() }
            if number != document.number { lost.append(document) }
        }
        let ids = Set(lost.flatMap { DeltaList.decode($0.tokens) })
        let texts = try SearchStore.tokenTexts(of: ids.sorted(), in: searchDB)
        return LostEntries(
            changes: (latest + 1)...applied,
            entries: lost.map { document in
                Entry(
                    number: document.number, date: document.date.map(JournalDate.init(microseconds:)),
                    words: DeltaList.decode(document.tokens).compactMap { texts[$0] }.sorted())
            })
    }

    /// One line for each entry lost: its number, date and words.
    public var lines: [String] {
        entries.map { entry in
            let words = entry.words.prefix(12).joined(separator: " ") + (entry.words.count > 12 ? " …" : "")
            return
                "\(entry.shortDescription) is in the search store but not in the entries' store, which lost it; its words there: \(words)"
        }
    }

    /// One line: the changes lost, and the entries (the first few named).
    public var summary: String {
        let changeText =
            changes.count == 1 ? "change \(changes.lowerBound)" : "changes \(changes.lowerBound)–\(changes.upperBound)"
        var line =
            "the entries' store lacks \(changeText), which the search store applied: lost (the file damaged, or restored from an older copy)"
        if !entries.isEmpty {
            let named = entries.prefix(5).map(\.shortDescription).joined(separator: ", ")
            let more = entries.count > 5 ? " and \(entries.count - 5) more" : ""
            line += "; missing: \(named)\(more)"
        }
        return line
    }
}

extension LostEntries.Entry {
    /// "p12 (2024-05-01T08:30:00Z)".
    public var shortDescription: String {
        "p\(number)" + (date.map { " (\($0.iso8601))" } ?? "")
    }
}
