/// The problems a check finds, by kind: every one counted, the first few of each kind kept, so
/// that a badly damaged store still gives a short report.
struct ProblemLog {
    /// Problems kept per kind.
    let examplesPerKind: Int
    private var examples: [String: [String]] = [:]
    private var counts: [String: Int] = [:]

    init(examplesPerKind: Int) { self.examplesPerKind = examplesPerKind }

    /// Records a problem of `kind` ("tokens", "postings"), described by `text`.
    mutating func add(_ kind: String, _ text: String) {
        counts[kind, default: 0] += 1
        if examples[kind, default: []].count < examplesPerKind { examples[kind, default: []].append(text) }
    }

    /// The kept problems, kind by kind, each kind followed by how many more there were.
    var lines: [String] {
        counts.keys.sorted().flatMap { kind in
            let shown = examples[kind] ?? []
            let more = counts[kind, default: 0] - shown.count
            return shown + (more > 0 ? ["… and \(more) more like the above"] : [])
        }
    }
}
