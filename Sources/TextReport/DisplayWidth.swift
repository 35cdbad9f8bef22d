/// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and
/// most emoji, 0 for combining marks and format characters, 1 otherwise (as wcwidth does).
package enum DisplayWidth {
    package static func of(_ text: some StringProtocol) -> Int { text.reduce(0) { $0 + of($1) } }

    /// `text` cut to at most `columns` columns, ending in "…" when it was cut.
    package static func clip(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var used = 0
        var clipped = ""
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            clipped.append(character)
            used += width
        }
        return clipped + "…"
    }

    package static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        return of(first)
    }

    package static func of(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
