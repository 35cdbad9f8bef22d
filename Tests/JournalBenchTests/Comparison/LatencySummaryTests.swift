import Testing

@testable import JournalBench
@testable import JournalKit

@Suite struct LatencySummaryTests {
    @Test func takesMedianP95AndMax() {
        let summary = LatencySummary((1...100).map(Double.init).shuffled())
        #expect(summary.median == 50.5)
        #expect(summary.p95 == 95)
        #expect(summary.max == 100)
        #expect(summary.samples == 100)
        #expect(LatencySummary([3, 1, 2]).median == 2)
        #expect(LatencySummary([]).samples == 0)
    }
}
