extension StringProtocol {
    /// Whether every code point has the Unicode `White_Space` property (an empty string's
    /// none): what trimming would leave empty, found without making the trimmed copy.
    package var isAllWhiteSpace: Bool {
        !unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}

extension String {
    /// The string without leading and trailing code points of the Unicode `White_Space` property.
    package var trimmingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// The string without trailing code points of the Unicode `White_Space` property.
    package var trimmingTrailingWhiteSpace: String {
        let scalars = unicodeScalars
        guard let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[...last])
    }
}
