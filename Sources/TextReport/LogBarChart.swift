import Foundation

/// A horizontal bar chart on a logarithmic time axis, as inline SVG: one bar per row to its
/// median, a thin line on to its 95th percentile.
package struct LogBarChart {
    /// Label, median and p95 in seconds, and colour.
    package let bars: [(label: String, median: Double, p95: Double, color: String)]
    /// What each colour means.
    package let legend: [(color: String, meaning: String)]

    package init(
        bars: [(label: String, median: Double, p95: Double, color: String)], legend: [(color: String, meaning: String)]
    ) {
        self.bars = bars
        self.legend = legend
    }

    package var svg: String {
        let values = bars.flatMap { [$0.median, $0.p95] }.filter { $0 > 0 }
        guard let smallest = values.min(), let largest = values.max() else { return "<p>No timings.</p>" }
        let low = floor(log10(smallest / 2)), high = max(low + 1, ceil(log10(largest)))
        let left = 120.0, width = 560.0, row = 22.0, top = 10.0
        let height = top + Double(bars.count) * row + 50
        func x(_ seconds: Double) -> Double { left + (log10(max(seconds, pow(10, low))) - low) / (high - low) * width }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(left + width + 20)) \(Int(height))\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">"
        ]
        for exponent in Int(low)...Int(high) {
            let position = x(pow(10, Double(exponent)))
            parts.append(
                "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(height - 45)\" stroke=\"#ddd\"/>")
            parts.append(
                "<text x=\"\(position)\" y=\"\(height - 30)\" text-anchor=\"middle\" fill=\"#555\">\(Self.label(exponent))</text>"
            )
        }
        for (index, bar) in bars.enumerated() {
            let y = top + Double(index) * row
            parts.append("<text x=\"\(left - 6)\" y=\"\(y + 14)\" text-anchor=\"end\">\(HTML.escape(bar.label))</text>")
            parts.append(
                "<rect x=\"\(left)\" y=\"\(y + 4)\" width=\"\(max(1, x(bar.median) - left))\" height=\"13\" fill=\"\(bar.color)\"><title>\(HTML.escape(bar.label)): median \(ReportNumbers.milliseconds(bar.median)) ms, p95 \(ReportNumbers.milliseconds(bar.p95)) ms</title></rect>"
            )
            parts.append(
                "<line x1=\"\(x(bar.median))\" y1=\"\(y + 10.5)\" x2=\"\(x(bar.p95))\" y2=\"\(y + 10.5)\" stroke=\"\(bar.color)\" stroke-width=\"2\"/>"
            )
        }
        for (index, entry) in legend.enumerated() {
            let x = left + Double(index) * 200
            parts.append("<rect x=\"\(x)\" y=\"\(height - 16)\" width=\"12\" height=\"12\" fill=\"\(entry.color)\"/>")
            parts.append("<text x=\"\(x + 18)\" y=\"\(height - 6)\">\(HTML.escape(entry.meaning))</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    private static func label(_ exponent: Int) -> String {
        switch exponent {
        case ..<(-3): "\(Int(pow(10, Double(exponent + 6)).rounded())) µs"
        case ..<0: "\(Int(pow(10, Double(exponent + 3)).rounded())) ms"
        default: "\(Int(pow(10, Double(exponent)).rounded())) s"
        }
    }
}

/// A self-contained page: inline style, no scripts, nothing fetched.
package enum HTMLPage {
    package static func render(title: String, sections: [(heading: String, body: String)]) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
        table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
        th,td{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        table.matrix td.m{text-align:center;min-width:2.2rem}
        table.matrix th.v{height:7rem;vertical-align:bottom;white-space:nowrap}
        table.matrix th.v span{writing-mode:vertical-rl;transform:rotate(180deg)}
        .yes{color:#276749}.no{color:#9b2c2c}
        </style></head><body>
        <h1>\(HTML.escape(title))</h1>
        \(sections.map { ($0.heading.isEmpty ? "" : "<h2>\(HTML.escape($0.heading))</h2>\n") + $0.body }.joined(separator: "\n"))
        </body></html>
        """
    }
}
