import Foundation
import ZIPFoundation

/// The `.zip` Day One exports: one JSON file per journal (`Journal.json`, `Travel.json`) beside
/// the folders of its photos and other media, which stay behind (the entries keep their
/// references as text).
package enum DayOneArchive {
    /// A zip archive starts with a local file header's signature.
    package static func isArchive(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// The entries of every journal in the archive at `url`, journal by journal in the
    /// archive's order.
    package static func entries(at url: URL) throws(JournalError) -> [ImportedEntry?] {
        try entries(in: opened { try Archive(url: url, accessMode: .read) })
    }

    /// The entries of every journal in the archive `data` (read from standard input).
    package static func entries(in data: Data) throws(JournalError) -> [ImportedEntry?] {
        try entries(in: opened { try Archive(data: data, accessMode: .read) })
    }

    private static func opened(_ open: () throws -> Archive) throws(JournalError) -> Archive {
        do {
            return try open()
        } catch {
            throw .invalidInput("not a readable zip archive (\(error))")
        }
    }

    private static func entries(in archive: Archive) throws(JournalError) -> [ImportedEntry?] {
        let journals = archive.filter { item in
            let parts = item.path.split(separator: "/")
            return item.type == .file && item.path.lowercased().hasSuffix(".json") && parts.count == 1
                && !item.path.hasPrefix(".")
        }
        guard !journals.isEmpty else {
            throw .invalidInput("the archive holds no Day One journal (a .json file at its top, like Journal.json)")
        }
        var entries: [ImportedEntry?] = []
        for journal in journals {
            var data = Data()
            do {
                _ = try archive.extract(journal) { data.append($0) }
            } catch {
                throw .invalidInput("\(journal.path): cannot be read from the archive (\(error))")
            }
            entries += try DayOneJSON.entries(in: data, name: journal.path)
        }
        return entries
    }
}
