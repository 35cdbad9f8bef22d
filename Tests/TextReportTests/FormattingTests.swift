import Foundation
import Testing

@testable import TextReport

/// Numbers as the reports and the command print them, checked against C's `printf`.
@Suite struct FormattingTests {
    /// What `printf` prints, but that a negative value that rounds to zero loses its sign.
    @Test func decimalsAreWhatPrintfPrints() {
        let values: [Double] = [
            0, 0.001, 0.0049, 0.0051, 0.5, 1, 1.5, 2.5, 9.995, 10, 12.3456, 99.95, 123.456, 1_234_567.891, -0.004,
            -3.14159,
            1e-9, 0.125, 0.375,
        ]
        for value in values {
            for places in 0...4 {
                let printed = String(format: "%.\(places)f", value)
                #expect(
                    Formatting.decimal(value, places: places)
                        == (printed.hasPrefix("-") && printed.allSatisfy { "-0.".contains($0) }
                            ? String(printed.dropFirst()) : printed),
                    "\(value) to \(places) places")
            }
        }
    }

    @Test func columnsArePaddedOrCut() {
        #expect(Formatting.padded("p12", to: 7) == "p12    ")
        #expect(Formatting.padded("p1234567", to: 7) == "p123456")
        #expect(Formatting.padded("東京", to: 3) == "東京 ")
        #expect(Formatting.padded("", to: 2) == "  ")
    }

    @Test func durationsAndSizesReadAsBefore() {
        #expect(Formatting.milliseconds(0.00123) == "1.23 ms")
        #expect(Formatting.milliseconds(0.0456) == "46 ms")
        #expect(Formatting.seconds(2.25) == "2.2 s")
        #expect(Formatting.bytes(999) == "999 B")
        #expect(Formatting.bytes(1_500) == "1.5 KB")
        #expect(Formatting.bytes(86_000_000) == "86 MB")
    }
}
