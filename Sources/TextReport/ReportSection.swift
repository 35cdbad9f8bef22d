/// One part of a report, its title written once: the tables, paragraphs and figures it holds,
/// each drawn in the formats it is for. A ``SectionedReport`` draws a list of them in every
/// format.
package struct ReportSection {
    /// What a section holds.
    package enum Content {
        /// A table, drawn as each format draws tables.
        case table(TextTable)
        /// A sentence or two.
        case paragraph(String)
        /// Ready-made HTML (a chart, a coloured matrix): for the page only.
        case html(String)
    }

    /// One piece of content and the formats it is drawn in.
    package struct Part {
        package let content: Content
        package let formats: Set<ReportFormat>

        /// `content` drawn in `formats` only.
        package init(content: Content, formats: Set<ReportFormat>) {
            self.content = content
            self.formats = formats
        }

        /// A table in every format.
        package static func table(_ table: TextTable) -> Part {
            Part(content: .table(table), formats: [.table, .markdown, .html])
        }

        /// A table for the files only (Markdown and HTML): detail a terminal need not scroll past.
        package static func detail(_ table: TextTable) -> Part {
            Part(content: .table(table), formats: [.markdown, .html])
        }

        /// A paragraph in every format.
        package static func paragraph(_ text: String) -> Part {
            Part(content: .paragraph(text), formats: [.table, .markdown, .html])
        }

        /// A figure for the page.
        package static func figure(_ html: String) -> Part { Part(content: .html(html), formats: [.html]) }
    }

    package let title: String
    package let parts: [Part]
    /// The verdict (targets met or missed): last in a terminal and in Markdown, where a reader
    /// ends, and first on the page, where a reader starts.
    package let isVerdict: Bool

    package init(_ title: String, _ parts: [Part], isVerdict: Bool = false) {
        self.title = title
        self.parts = parts
        self.isVerdict = isVerdict
    }

    /// Whether the section draws anything in `format`.
    fileprivate func isDrawn(in format: ReportFormat) -> Bool { parts.contains { $0.formats.contains(format) } }

    fileprivate func parts(in format: ReportFormat) -> [Content] {
        parts.filter { $0.formats.contains(format) }.map(\.content)
    }
}

/// A report made of facts (where and how it was measured) and sections: drawn for a terminal,
/// as Markdown and as a page from the same list, so that a section's title and tables are
/// written once.
package protocol SectionedReport: ReportRendering {
    /// The report's name: `journal bench`.
    var title: String { get }
    /// One line each: when, where, with which command.
    var facts: [String] { get }
    var sections: [ReportSection] { get }
}

extension SectionedReport {
    package func text(_ style: TextStyle) -> String {
        ([facts.joined(separator: "\n")]
            + ordered(for: .table).map { section in
                let body = section.parts(in: .table).map { content -> String in
                    switch content {
                    case .table(let table): table.text(style)
                    case .paragraph(let text): text
                    case .html: ""
                    }
                }
                return ([style.bold(section.title)] + body).joined(separator: "\n")
            }).joined(separator: "\n\n")
    }

    package var markdown: String {
        (["## \(title)", facts.map { "- " + $0 }.joined(separator: "\n")]
            + ordered(for: .markdown).flatMap { section in
                ["### \(section.title)"]
                    + section.parts(in: .markdown).map { content -> String in
                        switch content {
                        case .table(let table): table.markdown
                        case .paragraph(let text): text
                        case .html: ""
                        }
                    }
            }).joined(separator: "\n\n")
    }

    package var html: String {
        let factList = ("", "<ul>" + facts.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>")
        let drawn = ordered(for: .html)
        let sections = (drawn.filter(\.isVerdict) + drawn.filter { !$0.isVerdict }).map { section in
            (
                section.title,
                section.parts(in: .html).map { content -> String in
                    switch content {
                    case .table(let table): table.html
                    case .paragraph(let text): "<p>\(HTML.escape(text))</p>"
                    case .html(let html): html
                    }
                }.joined(separator: "\n")
            )
        }
        return HTMLPage.render(title: title, sections: [factList] + sections)
    }

    /// The sections drawn in `format`, the verdict last.
    private func ordered(for format: ReportFormat) -> [ReportSection] {
        let drawn = sections.filter { $0.isDrawn(in: format) }
        return drawn.filter { !$0.isVerdict } + drawn.filter(\.isVerdict)
    }
}
