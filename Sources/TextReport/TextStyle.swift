/// How text for a terminal may be styled: bold, dim and highlighted with ANSI escapes, or
/// left plain (a file, a pipe, `NO_COLOR`).
package struct TextStyle: Sendable {
    /// Whether escapes are written at all.
    package let usesColor: Bool

    package init(usesColor: Bool) { self.usesColor = usesColor }

    /// Plain text: no escape.
    package static let plain = TextStyle(usesColor: false)

    package func highlight(_ text: String) -> String { styled(text, "1;33") }
    package func dim(_ text: String) -> String { styled(text, "2") }
    package func bold(_ text: String) -> String { styled(text, "1") }

    private func styled(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
