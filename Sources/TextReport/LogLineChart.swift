import Foundation

/// Lines on logarithmic axes, as inline SVG: how figures grow with the journal's size.
package struct LogLineChart {
    package struct Series {
        let label: String
        let color: String
        /// Points (x, y); points with y ≤ 0 are left out.
        let points: [(x: Double, y: Double)]
        var dashed = false

        package init(label: String, color: String, points: [(x: Double, y: Double)], dashed: Bool = false) {
            self.label = label
            self.color = color
            self.points = points
            self.dashed = dashed
        }
    }

    package let series: [Series]
    /// Formats a tick's value on each axis.
    package let xLabel: (Double) -> String
    package let yLabel: (Double) -> String

    package init(series: [Series], xLabel: @escaping (Double) -> String, yLabel: @escaping (Double) -> String) {
        self.series = series
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    package var svg: String {
        let points = series.flatMap(\.points).filter { $0.y > 0 && $0.x > 0 }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
            let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
        else { return "<p>No figures.</p>" }
        let lowX = floor(log10(minX)), highX = max(lowX + 1, ceil(log10(maxX)))
        let lowY = floor(log10(minY)), highY = max(lowY + 1, ceil(log10(maxY)))
        let left = 80.0, top = 10.0, width = 460.0, height = 260.0
        let legendWidth = 190.0
        func x(_ value: Double) -> Double { left + (log10(value) - lowX) / (highX - lowX) * width }
        func y(_ value: Double) -> Double { top + height - (log10(value) - lowY) / (highY - lowY) * height }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(left + width + legendWidth + 20)) \(Int(top + height + 40))\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">"
        ]
        for exponent in Int(lowX)...Int(highX) {
            let position = x(pow(10, Double(exponent)))
            parts.append(
                "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(top + height)\" stroke=\"#ddd\"/>")
            parts.append(
                "<text x=\"\(position)\" y=\"\(top + height + 18)\" text-anchor=\"middle\" fill=\"#555\">\(HTML.escape(xLabel(pow(10, Double(exponent)))))</text>"
            )
        }
        for exponent in Int(lowY)...Int(highY) {
            let position = y(pow(10, Double(exponent)))
            parts.append(
                "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(left + width)\" y2=\"\(position)\" stroke=\"#ddd\"/>")
            parts.append(
                "<text x=\"\(left - 6)\" y=\"\(position + 4)\" text-anchor=\"end\" fill=\"#555\">\(HTML.escape(yLabel(pow(10, Double(exponent)))))</text>"
            )
        }
        for (index, line) in series.enumerated() {
            let visible = line.points.filter { $0.y > 0 && $0.x > 0 }
            let path = visible.map { "\(x($0.x)),\(y($0.y))" }.joined(separator: " ")
            let dash = line.dashed ? " stroke-dasharray=\"5 3\"" : ""
            parts.append(
                "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>")
            for point in visible {
                parts.append(
                    "<circle cx=\"\(x(point.x))\" cy=\"\(y(point.y))\" r=\"3\" fill=\"\(line.color)\"><title>\(HTML.escape(line.label)): \(HTML.escape(yLabel(point.y))) at \(HTML.escape(xLabel(point.x)))</title></circle>"
                )
            }
            let legendY = top + 14 + Double(index) * 16
            parts.append(
                "<line x1=\"\(left + width + 15)\" y1=\"\(legendY - 4)\" x2=\"\(left + width + 35)\" y2=\"\(legendY - 4)\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>"
            )
            parts.append("<text x=\"\(left + width + 40)\" y=\"\(legendY)\">\(HTML.escape(line.label))</text>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
