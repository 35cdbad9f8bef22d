/// A table of text, drawn for a terminal, as Markdown, or as HTML: the reports build their
/// tables once and every format draws the same rows.
package struct TextTable {
    package var headers: [String]
    package var rows: [[String]]
    /// Columns whose cells are numbers, aligned right.
    package var numericColumns: Set<Int> = []

    package init(headers: [String], rows: [[String]], numericColumns: Set<Int> = []) {
        self.headers = headers
        self.rows = rows
        self.numericColumns = numericColumns
    }

    /// Padded columns (by display width, so Japanese lines up), a rule under the header.
    package func text(_ style: TextStyle) -> String {
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { $0[column] }).map(Self.width).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - Self.width(cell))
                return numericColumns.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        return ([style.bold(line(headers)), style.dim(rule)] + rows.map(line)).joined(separator: "\n")
    }

    package var markdown: String {
        let escape = { (cell: String) in cell.replacingOccurrences(of: "|", with: "\\|") }
        let alignment = headers.indices.map { numericColumns.contains($0) ? "---:" : "---" }
        return ([headers.map(escape), alignment] + rows.map { $0.map(escape) })
            .map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }

    package var html: String {
        let head = headers.enumerated().map { column, cell in
            "<th\(numericColumns.contains(column) ? " class=\"n\"" : "")>\(HTML.escape(cell))</th>"
        }.joined()
        let body = rows.map { row in
            "<tr>"
                + row.enumerated().map { column, cell in
                    "<td\(numericColumns.contains(column) ? " class=\"n\"" : "")>\(HTML.escape(cell))</td>"
                }.joined() + "</tr>"
        }.joined(separator: "\n")
        return "<table>\n<thead><tr>\(head)</tr></thead>\n<tbody>\n\(body)\n</tbody>\n</table>"
    }

    private static func width(_ text: String) -> Int { DisplayWidth.of(text) }
}

package enum HTML {
    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
