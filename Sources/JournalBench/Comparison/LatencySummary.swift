import JournalKit

/// Median, 95th percentile and maximum of a set of timings, in seconds.
public struct LatencySummary: Sendable, Equatable {
    public let median: Double
    public let p95: Double
    public let max: Double
    public let samples: Int

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
