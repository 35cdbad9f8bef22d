import Foundation
import JournalKit

/// Draws ranks 0..<count with probability proportional to 1 / (rank + 1)^exponent, in
/// constant time (Vose's alias method): how often words are used in real text.
struct ZipfSampler: Sendable {
    private let probability: [Double]
    private let alias: [Int]

    init(count: Int, exponent: Double = 1.05) {
        let weights = (0..<count).map { 1 / pow(Double($0 + 1), exponent) }
        let total = weights.reduce(0, +)
        var scaled = weights.map { $0 * Double(count) / total }
        var probability = [Double](repeating: 1, count: count)
        var alias = Array(0..<count)
        var small = scaled.indices.filter { scaled[$0] < 1 }
        var large = scaled.indices.filter { scaled[$0] >= 1 }
        while let less = small.popLast(), let more = large.popLast() {
            probability[less] = scaled[less]
            alias[less] = more
            scaled[more] -= 1 - scaled[less]
            if scaled[more] < 1 { small.append(more) } else { large.append(more) }
        }
        self.probability = probability
        self.alias = alias
    }

    func draw(using random: inout SplitMix64) -> Int {
        let column = random.below(probability.count)
        let coin = Double(random.next() >> 11) / Double(1 << 53)
        return coin < probability[column] ? column : alias[column]
    }
}
