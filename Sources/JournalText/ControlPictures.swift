extension String {
    /// The text with each control character replaced by its picture (`␀`, `␁`, `␡`; C1 controls
    /// by `�`), so that showing it can't move a terminal's cursor or hide what follows; line
    /// feeds and tabs kept when `keepingNewlines`.
    package func withControlPictures(keepingNewlines: Bool) -> String {
        var output = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingNewlines, 0x09 where keepingNewlines: output.append(scalar)
            case 0x00...0x1F: output.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: output.append("\u{2421}")
            case 0x80...0x9F: output.append("\u{FFFD}")
            default: output.append(scalar)
            }
        }
        return String(output)
    }
}
