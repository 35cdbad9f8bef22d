import Foundation
import JournalText

/// The formats an import reads: this project's own, and what users of jrnl and Day One bring.
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    /// This project's JSON Lines, one entry a line (what `journal export` writes by default).
    case jsonl
    /// jrnl's JSON export (`jrnl --export json`).
    case jrnlJSON = "json"
    /// jrnl's plain-text journal file (`jrnl --export txt` writes one too).
    case jrnlText = "txt"
    /// jrnl's encrypted journal file (its versions 2 and 3), read with its password.
    case jrnlEncrypted = "jrnl-encrypted"
    /// Day One's JSON export, `Journal.json`, or the `.zip` archive holding it.
    case dayOne = "dayone"

    /// The format the input shows, from its first bytes (`prefix`) and, for a JSON document,
    /// the document itself (`document` reads it whole); nil when it shows none.
    ///
    /// A zip archive is Day One's; `JRNLv3` or a Fernet token (`gAAAAA`) is jrnl's encrypted
    /// journal; text whose first line starts with a jrnl date (`[2024-05-01
    /// 09:30]`) is jrnl's; a JSON document with `entries` is Day One's when it has `metadata` or
    /// its entries a `creationDate`, jrnl's when it has `tags` or its entries a `title`, a
    /// `body` or a `date` (a document that doesn't parse, by the keys it starts with); anything
    /// else starting with `{` is JSON Lines. The whole document is read only when its prefix
    /// names `entries`: a file of JSON Lines whose first line is longer than the prefix is not.
    package static func detect(
        prefix: some Collection<UInt8>, document: () throws(JournalError) -> Data
    ) throws(JournalError)
        -> ImportFormat?
    {
        if DayOneArchive.isArchive(prefix) { return .dayOne }
        if JrnlEncrypted.isEncrypted(prefix) { return .jrnlEncrypted }
        var text = Array(prefix)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        guard let start = text.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .jsonl }
        let firstLine = text[start...].prefix { $0 != 0x0A }
        switch text[start] {
        case UInt8(ascii: "["):
            let line = Substring(String(decoding: firstLine, as: UTF8.self).trimmingTrailingWhiteSpace)
            return JrnlText.header(line, timeZone: .current) == nil ? nil : .jrnlText
        case UInt8(ascii: "{"):
            // A first line read whole (a line break follows it within the prefix).
            let whole = firstLine.endIndex < text.endIndex
            let line = whole ? try? JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] : nil
            if let line, line["entries"] == nil { return .jsonl }
            // A document names its entries within its first bytes (after its tags or metadata);
            // anything else is JSON Lines, however long its first line: it is not read whole.
            if line == nil, !String(decoding: text, as: UTF8.self).contains("\"entries\"") { return .jsonl }
            guard let object = try? JSONSerialization.jsonObject(with: document()) as? [String: Any],
                let entries = object["entries"] as? [[String: Any]]
            else {
                // A document cut short or damaged is told by the keys it starts with, so that its
                // reader says what is wrong with it; anything else is JSON Lines, whose reader
                // names a bad line.
                let start = String(decoding: text.prefix(4_096), as: UTF8.self)
                guard start.contains("\"entries\"") else { return .jsonl }
                if start.contains("\"metadata\"") || start.contains("\"creationDate\"") { return .dayOne }
                return start.contains("\"tags\"") || start.contains("\"title\"") ? .jrnlJSON : .jsonl
            }
            let keys = Set(entries.prefix(100).flatMap(\.keys))
            if object["metadata"] != nil || keys.contains("creationDate") { return .dayOne }
            if object["tags"] != nil || keys.contains("title") || keys.contains("body") || keys.contains("date") {
                return .jrnlJSON
            }
            return nil
        default:
            return nil
        }
    }

    /// The format the first 64 KiB of the file at `path` show (see ``ImportFormat``), nil when
    /// they show none: for a tool that must know before importing (an encrypted jrnl journal
    /// needs its password). A JSON document is told by the keys it starts with.
    public static func shown(byFileAt path: String) throws(JournalError) -> ImportFormat? {
        let prefix = try JSONLinesReader(path: path).peek(1 << 16)
        return try detect(prefix: prefix) { () throws(JournalError) in Data(prefix) }
    }
}
