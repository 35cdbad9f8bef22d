import TextReport

/// Counts as horizontal bars in a terminal, one line each: a label, a bar as long as its count
/// is to the largest (to an eighth of a column), the count. Zero draws no bar.
enum BarChart {
    /// The lines for `rows`, fitted to `width` columns.
    static func lines(_ rows: [(label: String, count: Int)], width: Int, terminal: Terminal) -> [String] {
        let labelWidth = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        let countWidth = rows.map { Formatting.grouped($0.count).count }.max() ?? 0
        let room = max(10, width - labelWidth - countWidth - 4)
        let largest = rows.map(\.count).max() ?? 0
        return rows.map { row in
            let eighths = largest > 0 ? Int((Double(row.count) / Double(largest) * Double(room * 8)).rounded()) : 0
            var bar = String(repeating: "█", count: eighths / 8)
            if eighths % 8 > 0 { bar.append(partial[eighths % 8]) }
            let count = Formatting.grouped(row.count)
            let label = row.label + String(repeating: " ", count: labelWidth - DisplayWidth.of(row.label))
            return label + "  " + terminal.highlight(bar)
                + String(repeating: " ", count: room - DisplayWidth.of(bar) + 2)
                + String(repeating: " ", count: countWidth - count.count) + count
        }
    }

    /// A column's first seven eighths, left to right.
    private static let partial: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
}
