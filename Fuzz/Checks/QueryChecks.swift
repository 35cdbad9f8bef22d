import Foundation
import JournalKit
import JournalText

/// What must hold for the query syntax on any input, as the fuzz target and its regression
/// tests check it: each broken rule is one line in the answer, which is empty when all hold.
package enum QueryChecks {
    /// Dates are read as of a fixed instant, so that a run is the same every time.
    private static let now = Date(timeIntervalSince1970: 1_732_492_800)

    package static func problems(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let query = try? SearchQuery(text, now: now, timeZone: TimeZone(identifier: "UTC")!) else {
            return text.trimmingWhiteSpace.isEmpty ? [] : ["a query with characters was refused as empty"]
        }
        var problems: [String] = []
        let again = try? SearchQuery(text, now: now, timeZone: TimeZone(identifier: "UTC")!)
        if again != query { problems.append("reading the same query twice gave two answers") }
        switch query.parsed {
        case .failure(let problem):
            if problem.message.isEmpty { problems.append("a syntax error without a message") }
            if problem.characters.lowerBound < 0 || problem.characters.upperBound > (query.text ?? "").count
                || problem.characters.isEmpty
            {
                problems.append(
                    "the error's place \(problem.characters) is outside the query's \((query.text ?? "").count) characters"
                )
            }
        case .success(let term):
            problems += check(term)
            do {
                let plan = try SearchPlan(query, family: .wordPrefix, earliestDate: JournalDate(microseconds: 0))
                let fts5 = FTS5Query(
                    plan.condition, schema: .init(table: "t", rowid: "t.rowid", date: "d", starred: "s", tags: "tag"))
                if fts5.match == nil && fts5.condition == "1" {
                    problems.append("FTS5 was given no condition for \(term)")
                }
            } catch {
                problems.append("a query that reads could not be planned: \(error.message)")
            }
        }
        return problems
    }

    /// Every word canonical and a single word, every phrase of two words or more, no empty or
    /// single-term group, no double negation.
    private static func check(_ term: QueryTerm) -> [String] {
        switch term {
        case .word(let word):
            return WordBreaker.words(in: word) == [word] && Fold.canonical(word) == word
                ? [] : ["\(word.debugDescription) is not one canonical word"]
        case .phrase(let words):
            return words.count >= 2 ? words.flatMap { check(.word($0)) } : ["a phrase of \(words.count) word"]
        case .tag(let name), .exactTag(let name):
            return Tags.canonicalName(name) == name ? [] : ["tag \(name.debugDescription) is not canonical"]
        case .starred, .onThisDay: return []
        case .dated(let from, let until):
            return from == nil && until == nil ? ["a date term with no bounds"] : []
        case .all(let terms), .any(let terms):
            return (terms.count < 2 ? ["a group of \(terms.count) term"] : []) + terms.flatMap(check)
        case .not(let inner):
            if case .not = inner { return ["a double negation"] }
            return check(inner)
        }
    }
}
