import Foundation

/// Importing: this project's JSON Lines, and the formats jrnl and Day One users bring.
///
/// An import is all or nothing: when any entry is bad, nothing is written and the error names
/// it (a line, or an entry's index and UUID). The main store takes it in steps of
/// ``importStepBytes`` of input, written on this thread while another reads and analyses the
/// next entries; no read sees a step before the last one commits (``PendingImport``), and a
/// killed import goes on where it stopped when run again with the same input. The search store
/// then catches up in batches. An entry the journal holds already is left out and
/// counted (``ImportSummary/alreadyPresent``), so importing the same file twice adds nothing:
/// one that has the date and text of an entry it holds (or was exported from one that still
/// has them), and no star or tag that entry lacks (one that adds a star or a tag is an entry of
/// its own, imported beside it). `keepingDuplicates` imports those all the same (an entry of an
/// origin it holds, Day One's uuid, is always left out: an origin names one entry).
extension Journal {
    /// Imports JSON Lines, all or nothing.
    public func importJSONLines(
        from reader: JSONLinesReader, keepingDuplicates: Bool = false, progress: ProgressHandler? = nil
    ) throws(JournalError) -> ImportSummary {
        try importEntries(
            from: reader, input: "", keepingDuplicates: keepingDuplicates, progress: progress, cancellation: nil)
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

    /// Imports as the public method does, cancellable, in steps of `stepBytes` of input (a
    /// smaller step lets a test or a measurement see an import of a few kilobytes in steps).
    package func importFile(
        atPath path: String, format: ImportFormat?, password: Passphrase?, keepingDuplicates: Bool,
        progress: ProgressHandler?, cancellation: Cancellation?, stepBytes: Int = importStepBytes
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
                from: reader, input: path, keepingDuplicates: keepingDuplicates, progress: progress,
                cancellation: cancellation,
                stepBytes: stepBytes)
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
        let digest =
            try format == .dayOne && path != "-" && document == nil
            ? InputDigest.ofFile(atPath: path) : InputDigest.of(wholeDocument())
        let source = DocumentSource(
            entries.map { .success($0) }, bytes: reader.totalBytes ?? document?.count ?? 0, digest: digest)
        return try importEntries(
            from: source, input: path, keepingDuplicates: keepingDuplicates, progress: progress,
            cancellation: cancellation,
            stepBytes: stepBytes)
    }

    /// How much input an import takes in one step (one main-store transaction), so that the
    /// main store's WAL stays bounded by the step, whatever the import's size.
    package static let importStepBytes = 16 << 20

    /// How much input the reading thread analyses at a time (on every core) before handing it to
    /// the writer, which starts once the first batch is ready and then writes each while the next
    /// is analysed: small batches let the writer start sooner.
    package static let importBatchBytes = 256 << 10

    /// Imports in steps (``PendingImport``), going on with the pending import when there is one
    /// and `source` is its input. Cancelled or failed on its input (a bad entry), an import takes
    /// back what its steps wrote, so that nothing of it was ever written; killed, or failed on
    /// anything else (a full disk), it stays pending, never taken back.
    func importEntries<Source: ImportSource>(
        from source: Source, input: String, keepingDuplicates: Bool, progress: ProgressHandler?,
        cancellation: Cancellation?, stepBytes: Int = importStepBytes
    ) throws(JournalError) -> ImportSummary {
        try changing { () throws(JournalError) in
            try ImportRun(
                journal: self, source: source, input: input, keepingDuplicates: keepingDuplicates, progress: progress,
                cancellation: cancellation, stepBytes: stepBytes
            ).run()
        }
    }

    /// The import that has written part of its input and not finished, if there is one: under
    /// way in some process, or interrupted (its process killed). Until it is run again with the
    /// same input or abandoned, no read sees its entries and the journal takes no other write.
    public func pendingImport() throws(JournalError) -> PendingImport? {
        try main.pendingImport()
    }

    /// Whether a process is importing into the journal now: with or without a
    /// ``pendingImport()`` (an import has none until its first step is written, and a small
    /// one none at all).
    public var isImportUnderWay: Bool { ImportLock.isHeld(besides: main.url) }

    /// Whether a process is bringing the search store up to date now (an import indexing what
    /// it wrote, or any command catching up): when none is, indexing that ``indexStatus()``
    /// shows unfinished was interrupted, and the next journal opened for more than an
    /// ``JournalUse/inspection`` finishes it.
    public var isIndexingUnderWay: Bool { CatchUpLock.isHeld(besides: search.url) }

    /// Drops the pending import: deletes the entries it wrote (which no read ever saw), a step
    /// at a time, and its record. Returns what it had written, nil when none was pending.
    /// Refused while the import is under way in another process.
    @discardableResult
    public func abandonPendingImport(progress: ProgressHandler? = nil) throws(JournalError) -> PendingImport? {
        try changing { () throws(JournalError) in
            let lock = try ImportLock.acquire(besides: main.url, timeout: StoreDatabase.busyTimeout)
            defer { lock.release() }
            guard let pending = try main.pendingImport() else { return nil }
            var left = pending
            while let step = try main.abandonImportStep() {
                left = step
                progress?(
                    JournalProgress(phase: .abandoning, done: pending.written - left.written, total: pending.written))
            }
            return pending
        }
    }
}
