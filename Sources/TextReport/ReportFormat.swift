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
        case ..<1: return Formatting.decimal(ms, places: 3)
        case ..<10: return Formatting.decimal(ms, places: 2)
        case ..<100: return Formatting.decimal(ms, places: 1)
        default: return Formatting.decimal(ms, places: 0)
        }
    }

    package static func seconds(_ seconds: Double?) -> String {
        guard let seconds else { return "–" }
        return seconds < 1 ? milliseconds(seconds) + " ms" : Formatting.decimal(seconds, places: 2) + " s"
    }

    /// "3.2× faster" / "2.0× slower" / "same" for a timing against a peer's.
    package static func versus(_ value: Double, peer: Double) -> String {
        guard value > 0, peer > 0 else { return "–" }
        let ratio = peer / value
        if abs(ratio - 1) < 0.05 { return "same" }
        return ratio > 1
            ? Formatting.decimal(ratio, places: 1) + "× faster" : Formatting.decimal(1 / ratio, places: 1) + "× slower"
    }

    package static func milliseconds(json seconds: Double?) -> JSONValue {
        seconds.map { .number(($0 * 1e6).rounded() / 1e3) } ?? .null
    }
}
