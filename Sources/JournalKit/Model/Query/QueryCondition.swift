/// A query's term as a search answers it: every date resolved to microseconds (on this day to
/// the days of the journal's years), nothing left that depends on when or where the search runs.
/// ``SearchPlan`` makes it from a ``QueryTerm``; the stores turn it into their own reads.
///
/// Invariant: a condition is answered the same by every strategy of a family and every store
/// that can answer it; nothing in it is read from a store.
package indirect enum QueryCondition: Sendable, Hashable {
    /// Some token of the entry starts with this canonical word.
    case word(String)
    /// These canonical words stand side by side, the last a prefix.
    case phrase([String])
    /// The entry has this tag, or one below it.
    case tag(String)
    /// The entry has this very tag.
    case exactTag(String)
    /// The entry is starred.
    case starred
    /// The entry is dated at or after `from` and before `until` (microseconds; either open).
    case dated(from: Int64?, until: Int64?)
    /// Every one of these holds (none: every entry).
    case all([QueryCondition])
    /// At least one of these holds (none: no entry).
    case any([QueryCondition])
    /// This does not hold.
    case not(QueryCondition)

    /// The tags and stars in the condition, anywhere: what is read from the main store first.
    package var mainStoreConditions: Set<QueryCondition> {
        switch self {
        case .tag, .exactTag, .starred: [self]
        case .all(let conditions), .any(let conditions):
            conditions.reduce(into: []) { $0.formUnion($1.mainStoreConditions) }
        case .not(let condition): condition.mainStoreConditions
        case .word, .phrase, .dated: []
        }
    }

    /// Whether the condition restricts entries by their dates, tags and star only, reading no
    /// word: what a listing answers, and what a search applies first.
    package var isRestriction: Bool {
        switch self {
        case .tag, .exactTag, .starred, .dated: true
        case .word, .phrase: false
        case .all(let conditions), .any(let conditions): conditions.allSatisfy(\.isRestriction)
        case .not(let condition): condition.isRestriction
        }
    }
}
