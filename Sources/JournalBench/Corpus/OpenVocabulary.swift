import Foundation

/// The rare words of a language as real text keeps adding them (Heaps' law): ranks drawn from
/// a power law with no upper bound, each rank a word made of the language's pieces, the same
/// word for the same seed and rank. In n draws about n^(1/exponent) distinct words appear, so
/// a journal's vocabulary keeps growing with the journal, as real text's does, where a fixed
/// word list would stop.
struct OpenVocabulary: Sendable {
    let language: CorpusLanguage
    let seed: UInt64
    /// The power law's exponent: a rank r is drawn with probability about r^-exponent.
    static let exponent = 1.35

    /// A rank from the power law, then its word.
    func draw(using random: inout SplitMix64) -> String {
        word(rank: Self.rank(using: &random))
    }

    /// A rank of 1 or more, as likely as `rank^-exponent`.
    static func rank(using random: inout SplitMix64) -> UInt64 {
        let uniform = Double((random.next() >> 11) + 1) / Double(UInt64(1) << 53)
        return UInt64(Swift.min(pow(uniform, -1 / (exponent - 1)), 1e15))
    }

    /// The word of `rank`, another for every rank: the rank's digits in base `pieces.count`
    /// (two at least, more the rarer the word), each a piece, shifted by the seed so that
    /// languages and seeds differ.
    func word(rank: UInt64) -> String {
        let base = UInt64(language.pieces.count)
        var shift = SplitMix64(seed: seed)
        var value = rank + base  // two digits at least
        var word = ""
        while value > 0 {
            word += language.pieces[Int((value % base + shift.next() % base) % base)]
            value /= base
        }
        return word
    }
}
