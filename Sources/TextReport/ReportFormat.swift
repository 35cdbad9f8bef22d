import Foundation

/// How `journal compare` writes its report.
package enum ReportFormat: String, CaseIterable, Sendable {
    case table, markdown, json, html
}

/// A report drawn in every format from the same tables.
package protocol ReportRendering {
    /// For a terminal, bold and dim where `style` allows.
    func text(_ style: TextStyle) -> String
    var markdown: String { get }
    var json: JSONValue { get }
    var html: String { get }
}

extension ReportRendering {
    package func render(_ format: ReportFormat, style: TextStyle) -> String {
        switch format {
        case .table: text(style)
        case .markdown: markdown
        case .json: json.serialized
        case .html: html
        }
    }
}

/// What every report says about where and how it was measured.
package struct ReportContext {
    package let command: String
    package let machine: String

    package static var current: ReportContext {
        let arguments = CommandLine.arguments.dropFirst().map { argument in
            argument.isEmpty || argument.contains(where: { " \"'$[]*?&;|<>()".contains($0) })
                ? "'\(argument.replacingOccurrences(of: "'", with: "'\\''"))'" : argument
        }
        let info = ProcessInfo.processInfo
        let machine =
            "\(info.activeProcessorCount) cores, \(Int((Double(info.physicalMemory) / 1e9).rounded())) GB, \(info.operatingSystemVersionString)"
        return ReportContext(command: (["journal"] + arguments).joined(separator: " "), machine: machine)
    }
}

/// Durations as the reports print them: milliseconds with three significant figures.
package enum ReportNumbers {
    package static func milliseconds(_ seconds: Double?) -> String {
        guard let seconds else { return "–" }
        let ms = seconds * 1000
        switch ms {
        case ..<1: return String(format: "%.3f", ms)
        case ..<10: return String(format: "%.2f", ms)
        case ..<100: return String(format: "%.1f", ms)
        default: return String(format: "%.0f", ms)
        }
    }

    package static func seconds(_ seconds: Double?) -> String {
        guard let seconds else { return "–" }
        return seconds < 1 ? milliseconds(seconds) + " ms" : String(format: "%.2f s", seconds)
    }

    /// "3.2× faster" / "2.0× slower" / "same" for a timing against a peer's.
    package static func versus(_ value: Double, peer: Double) -> String {
        guard value > 0, peer > 0 else { return "–" }
        let ratio = peer / value
        if abs(ratio - 1) < 0.05 { return "same" }
        return ratio > 1 ? String(format: "%.1f× faster", ratio) : String(format: "%.1f× slower", 1 / ratio)
    }

    package static func milliseconds(json seconds: Double?) -> JSONValue {
        seconds.map { .number(($0 * 1e6).rounded() / 1e3) } ?? .null
    }
}
