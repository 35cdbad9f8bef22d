import Testing

@testable import JournalKit

@Suite struct MarkdownEscapesTests {
    @Test(arguments: [
        // Day One's escapes before punctuation go; the punctuation stays.
        (#"Done\. Bought apples \(red\)\!"#, "Done. Bought apples (red)!"),
        (#"\- milk"#, "- milk"),
        (##"\#not a heading, 3 \* 4 \= 12, a\_b"##, "#not a heading, 3 * 4 = 12, a_b"),
        // An escaped backslash is one backslash; a backslash before a letter, a digit or a space stays.
        (#"C:\\Users \n \d \1 \ end"#, #"C:\Users \n \d \1 \ end"#),
        // Code keeps its backslashes: inline spans (of matching backtick runs) and fenced blocks.
        (#"run `a\.b` then \."#, #"run `a\.b` then ."#),
        (#"``x\.` y`` \."#, #"``x\.` y`` ."#),
        ("```\n\\.\n```\n\\.", "```\n\\.\n```\n."),
        ("~~~~\n\\.\n```\n\\.\n~~~~\n\\.", "~~~~\n\\.\n```\n\\.\n~~~~\n."),
        // A backtick with no partner is text, not a code span.
        (#"a ` b \."#, #"a ` b ."#),
        // Media references and non-ASCII text pass through.
        ("![](dayone-moment://5F1E) 東京\\.", "![](dayone-moment://5F1E) 東京."),
        ("trailing \\", "trailing \\"),
    ])
    func removesEscapesOutsideCode(escaped: String, expected: String) {
        #expect(MarkdownEscapes.removed(from: escaped) == expected)
    }
}
