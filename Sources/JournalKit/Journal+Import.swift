import Foundation

/// Importing: this project's JSON Lines, and the formats jrnl and Day One users bring.
///
/// An import is all or nothing: when any entry is bad, nothing is written and the error names
/// it (a line, or an entry's index and UUID). The main store takes the whole import in one
/// transaction, written on this thread while another reads and analyses the next entries; the
/// search store then catches up in batches. An entry the journal holds already is left out and
/// counted (``ImportSummary/alreadyPresent``), so importing the same file twice adds nothing;
/// `keepingDuplicates` imports those that have the same date and text as one it holds, or
/// that were exported from it, all the same (an entry of an origin it holds, Day One's uuid, is
/// always left out: an origin names one entry).
extension Journal {
    /// Imports JSON Lines, all or nothing.
    public func importJSONLines(
        from reader: JSONLinesReader, keepingDuplicates: Bool = false, progress: ProgressHandler? = nil
    ) throws(JournalError) -> ImportSummary {
        try importEntries(from: reader, keepingDuplicates: keepingDuplicates, progress: progress, cancellation: nil)
    }

    /// Imports the file at `path` (standard input for `-`), in `format` or, when nil, the format
    /// its content shows (``ImportFormat``); all or nothing.
    ///
    /// An encrypted jrnl journal (``ImportFormat/jrnlEncrypted``) is read with its `password`:
    /// without one, the error is ``JournalError/Kind/passphraseRequired``; with a wrong one,
    /// ``JournalError/Kind/wrongPassphrase``.
    public func importFile(
        atPath path: String, format: ImportFormat? = nil, password: Passphrase? = nil, keepingDuplicates: Bool = false,
        progress: ProgressHandler? = nil
    ) throws(JournalError)
        -> ImportSummary
    {
        try importFile(
            atPath: path, format: format, password: password, keepingDuplicates: keepingDuplicates, progress: progress,
            cancellation: nil)
    }

    func importFile(
        atPath path: String, format: ImportFormat?, password: Passphrase?, keepingDuplicates: Bool,
        progress: ProgressHandler?, cancellation: Cancellation?
    ) throws(JournalError) -> ImportSummary {
        let reader = try JSONLinesReader(path: path)
        let prefix = try reader.peek(1 << 16)
        var document: Data?
        func wholeDocument() throws(JournalError) -> Data {
            if let document { return document }
            let data = try reader.peekAll()
            document = data
            return data
        }
        // A format given is taken as given: nothing is read to tell it.
        let shown = format == nil ? try ImportFormat.detect(prefix: prefix, document: wholeDocument) : nil
        guard let format = format ?? shown else {
            throw .invalidInput(
                "cannot tell the format of \(path == "-" ? "the input" : path); say which with a format "
                    + "(\(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))", file: path)
        }
        let entries: [ImportedEntry?]
        switch format {
        case .jsonl:
            return try importEntries(
                from: reader, keepingDuplicates: keepingDuplicates, progress: progress, cancellation: cancellation)
        case .jrnlText:
            entries = try JrnlText.entries(in: wholeDocument())
        case .jrnlJSON:
            entries = try JrnlJSON.entries(in: wholeDocument())
        case .jrnlEncrypted:
            guard let password else {
                throw JournalError(
                    .passphraseRequired, "\(path) is an encrypted jrnl journal: its password is needed", file: path)
            }
            entries = try JrnlText.entries(in: JrnlEncrypted.decrypt(wholeDocument(), password: password, file: path))
        case .dayOne where !DayOneArchive.isArchive(prefix):
            entries = try DayOneJSON.entries(in: wholeDocument())
        case .dayOne:
            entries =
                try path == "-"
                ? DayOneArchive.entries(in: wholeDocument()) : DayOneArchive.entries(at: URL(fileURLWithPath: path))
        }
        let source = DocumentSource(entries.map { .success($0) }, bytes: reader.totalBytes ?? document?.count ?? 0)
        return try importEntries(
            from: source, keepingDuplicates: keepingDuplicates, progress: progress, cancellation: cancellation)
    }

    /// Cancelled before its commit, an import writes nothing; once committed, it is done.
    func importEntries<Source: ImportSource>(
        from source: Source, keepingDuplicates: Bool, progress: ProgressHandler?, cancellation: Cancellation?
    ) throws(JournalError) -> ImportSummary {
        typealias Batch = Result<(entries: [PreparedEntry], empty: Int, bytesRead: Int), JournalError>
        let now = JournalDate.now
        nonisolated(unsafe) let input = source
        let storeID = self.storeID
        let batches = try HandOff<Batch>.start { handOff in
            while true {
                let next: Batch
                do throws(JournalError) {
                    guard let items = try input.nextBatch() else { return }
                    let read = items.parallelMap { item in
                        Source.entry(from: item, now: now).flatMap { imported -> Result<PreparedEntry?, JournalError> in
                            guard let imported else { return .success(nil) }
                            return Result { () throws(JournalError) in
                                var prepared = try Self.prepare(imported.entry)
                                guard !keepingDuplicates else { return prepared }
                                // An entry exported from this journal is left out while it is still here.
                                if let source = imported.exportedFrom, source.storeID == storeID {
                                    prepared.exportedFrom = source.number
                                }
                                prepared.sameDateAndText = imported.sameDateAndText
                                return prepared
                            }.mapError { imported.error($0.message) }
                        }
                    }
                    let prepared = try read.map { result throws(JournalError) in try result.get() }
                    next = .success((prepared.compactMap { $0 }, prepared.count { $0 == nil }, input.bytesRead))
                } catch {
                    next = .failure(error)
                }
                guard handOff.put(next), case .success = next else { return }
            }
        }
        defer { batches.cancel() }
        var count = 0
        var empty = 0
        let (numbers, alreadyPresent) = try write(progress: progress) { hooks throws(JournalError) in
            try main.insert(hooks) { insert in
                while let batch = batches.take() {
                    try cancellation?.check()
                    let (entries, emptyInBatch, bytesRead) = try batch.get()
                    for entry in entries { try insert(entry) }
                    count += entries.count
                    empty += emptyInBatch
                    progress?(JournalProgress(phase: .importing, done: bytesRead, total: source.totalBytes))
                }
            }
        }
        // Written and indexed: a checkpoint that fails (a full disk) is left to the last close.
        try? main.checkpoint()
        try? search.checkpoint()
        return ImportSummary(
            count: count - alreadyPresent, ids: numbers, bytes: source.bytesRead, alreadyPresent: alreadyPresent,
            empty: empty)
    }
}
