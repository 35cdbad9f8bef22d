import Foundation
import GRDB
import JournalText

/// `matches`, `matches[c]`, `matches[d]`, `matches[cd]`: the same entries as the `contains`
/// variant, found by ICU's regular-expression engine: the folded query compiled once, as a
/// literal pattern, and searched for in every row's (folded) text.
struct MatchesStrategy: FoldedSubstringStrategy {
    let verb = "matches"
    /// Nil for plain `matches`.
    let fold: Fold?

    var summary: String {
        fold.map { "ICU regex engine, literal pattern, the text folded (\($0.summary)) for every row" }
            ?? "ICU regex engine, the query as a literal pattern"
    }

    func measureStructure(in stores: SearchContext, rebuild: Bool) throws(JournalError) -> StrategyStructure {
        StrategyStructure(
            description: fold == nil ? "none: a pattern compiled per query" : "none: a pattern compiled per query, every row folded")
    }

    func search(_ query: SearchQuery, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer {
        let needle = try self.needle(query)
        let matcher: RegexMatcher
        do {
            matcher = try RegexMatcher(pattern: needle, options: .literal)
        } catch {
            throw .usage("the query \"\(query.text)\" cannot be compiled as a literal pattern (\(error.reason))")
        }
        return try RegexFunction.answer(matcher: matcher, fold: fold, in: stores, page: page)
    }
}

/// `journal_matches(text)`: a per-query SQL function around one compiled pattern, added to
/// the reading connection for the query and removed after it.
enum RegexFunction {
    static func answer(
        matcher: RegexMatcher, fold: Fold?, in stores: SearchContext, page: PageRequest
    ) throws(JournalError) -> StrategyAnswer {
        let function = DatabaseFunction("journal_matches", argumentCount: 1, pure: true) { values in
            guard case .blob(let data) = values[0].storage else { return false }
            return data.withUnsafeBytes { raw in
                let utf8 = raw.bindMemory(to: UInt8.self)
                guard let fold else { return matcher.matches(utf8: utf8) }
                return matcher.matches(fold.apply(toUTF8: utf8))
            }
        }
        return try SubstringSearch.answer(
            where: "journal_matches(CAST(text AS BLOB))", arguments: [], in: stores, page: page,
            prepare: { $0.add(function: function) }, finish: { $0.remove(function: function) })
    }
}
