import JournalKit

/// Median, 95th percentile and maximum of a set of timings, in seconds.
public struct LatencySummary: Sendable, Equatable {
    /// The middle timing.
    public let median: Double
    /// The timing 95% of the runs did not exceed.
    public let p95: Double
    /// The slowest timing.
    public let max: Double
    /// How many timings there were.
    public let samples: Int

    /// The summary of `seconds` (zeros when there are none).
    public init(_ seconds: [Double]) {
        let sorted = seconds.sorted()
        samples = sorted.count
        guard !sorted.isEmpty else {
            (median, p95, max) = (0, 0, 0)
            return
        }
        median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        p95 = sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
        max = sorted[sorted.count - 1]
    }
}
