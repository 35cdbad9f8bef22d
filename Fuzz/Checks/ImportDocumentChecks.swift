import Foundation
import JournalKit

/// What must hold for the readers of jrnl's and Day One's formats on any input, as the fuzz
/// target and its regression tests check it: each reader, given the bytes, either refuses them
/// with invalid input or gives entries a journal can hold (text with something in it, tags
/// that are tags, an origin that is not empty), each with a location; and telling the format
/// never fails but on a read error. The archive reader gets only what starts like a zip
/// archive, as in an import.
package enum ImportDocumentChecks {
    package static func problems(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let data = Data(buffer: bytes)
        var problems: [String] = []
        var readers: [(String, () throws(JournalError) -> [ImportedEntry?])] = [
            ("jrnl text", { () throws(JournalError) in try JrnlText.entries(in: data, timeZone: .gmt) }),
            ("jrnl JSON", { () throws(JournalError) in try JrnlJSON.entries(in: data, timeZone: .gmt) }),
            ("Day One JSON", { () throws(JournalError) in try DayOneJSON.entries(in: data) }),
        ]
        if DayOneArchive.isArchive(data) {
            readers.append(("Day One archive", { () throws(JournalError) in try DayOneArchive.entries(in: data) }))
        }
        for (name, read) in readers {
            do {
                for imported in try read().compactMap({ $0 }) {
                    if imported.location.isEmpty { problems.append("\(name): an entry without a location") }
                    do {
                        try NewEntry.validate(text: imported.entry.text)
                        _ = try NewEntry.tagNames(imported.entry.tags)
                    } catch {
                        problems.append("\(name): \(imported.location) can't be held: \(error.message)")
                    }
                    if imported.entry.origin?.isEmpty == true {
                        problems.append("\(name): \(imported.location) has an empty origin")
                    }
                }
            } catch  where error.kind != .invalidInput {
                problems.append("\(name) failed with \(error.kind.rawValue), not invalid input: \(error.message)")
            } catch {
                if error.message.isEmpty { problems.append("\(name) refused the input without saying why") }
            }
        }
        do {
            _ = try ImportFormat.detect(prefix: data.prefix(1 << 16), document: { data })
        } catch {
            problems.append("telling the format failed: \(error.message)")
        }
        return problems
    }
}
