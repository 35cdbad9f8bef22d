import JournalText

/// `matches`, `matches[c]`, `matches[d]`, `matches[cd]`: the same entries as the `contains`
/// variant, found by ICU's regular-expression engine: the folded query compiled once, as a
/// literal pattern, and searched for in every row's (folded) text.
struct MatchesStrategy: FoldedSubstringStrategy {
    var id: StrategyID { .matches(fold) }
    /// Nil for plain `matches`.
    let fold: Fold?

    var summary: String {
        fold.map { "ICU regex engine, literal pattern, the text folded (\($0.summary)) for every row" }
            ?? "ICU regex engine, the query as a literal pattern"
    }

    var structure: SearchStructure { .compiledPattern(folded: fold != nil) }

    func search(_ plan: SearchPlan, page: PageRequest, in stores: SearchContext) throws(JournalError) -> StrategyAnswer
    {
        let needle = try self.needle(plan)
        let matcher: RegexMatcher
        do {
            matcher = try RegexMatcher(pattern: needle, options: .literal)
        } catch {
            throw .usage("the query \"\(plan.needle ?? "")\" cannot be compiled as a literal pattern (\(error.reason))")
        }
        let (total, numbers) = try stores.main.newestFirst(
            matching: .pattern(matcher, fold), restriction: plan.restriction, page: page,
            cancellation: stores.cancellation)
        return StrategyAnswer(total: total, numbers: numbers)
    }
}
