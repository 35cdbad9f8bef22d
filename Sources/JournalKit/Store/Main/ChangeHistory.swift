/// One change to the main store's entries, recorded in the same transaction as the change
/// itself, so that every derived structure can catch up from the last change it applied.
struct Change: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// Entries `first...last` were created (one import is one change).
        case insert
        /// Entry texts or dates changed.
        case update
        /// Entries were removed.
        case delete
    }

    /// The change's position in the history: increasing, never reused.
    let sequence: Int64
    let kind: Kind
    let entries: ClosedRange<Int64>
    /// A random number drawn when the change was recorded, so that a search store can tell this
    /// history's change `sequence` from another copy's change of the same number (nil for the
    /// changes recorded before tags were).
    let tag: Int64?
}

extension Change {
    /// `numbers` as the runs of consecutive numbers a change each records, in order.
    static func runs(of numbers: [Int64]) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        for number in Set(numbers).sorted() {
            if let last = runs.last, last.upperBound == number - 1 {
                runs[runs.count - 1] = last.lowerBound...number
            } else {
                runs.append(number...number)
            }
        }
        return runs
    }
}
