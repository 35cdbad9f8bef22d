import JournalText

/// Checks, reading only, that every page of both stores reads and holds B-trees of the right
/// shape (``PageCheck``), and that everything derived from the main store agrees with it, one
/// structure at a time in one read of both stores: each entry against its document
/// (``EntryDocumentCheck``), the postings of tokens and prefix keys (``PostingCheck``), the
/// documents by day (``DateBucketCheck``), their lengths in blocks (``DocumentLengthCheck``),
/// the counts of the forms tags are written in, the prefix table (``PrefixTableCheck``), what
/// sync keeps of the entries (``SyncLedgerCheck``), and the FTS5 peer where built.
///
/// Memory stays bounded: entries and documents are read side by side in number order, and
/// postings are compared with documents through tallies of their links (``LinkTally``).
struct JournalVerifier {
    let stores: JournalStores
    /// Stops the check (SQLite interrupts its reads) when raised.
    var cancellation: Cancellation?
    /// Problems reported per kind, so that a badly damaged store still gives a short report.
    var examplesPerKind = 5

    func run(progress: ProgressHandler?) throws(JournalError) -> VerificationReport {
        var problems = ProblemLog(examplesPerKind: examplesPerKind)
        var entriesDamaged = false
        var lost: LostEntries?
        let checked = try stores.readBoth(cancellation: cancellation) { mainDB, searchDB in
            entriesDamaged = try !PageCheck.run(stores.main.url, in: mainDB, problems: &problems)
            let searchReads = try PageCheck.run(stores.search.url, in: searchDB, problems: &problems)
            // The checks below would stop at the first damaged page they read.
            guard !entriesDamaged, searchReads else { return 0 }
            if case .entriesLost(let applied, let latest) = try IndexStanding.of(
                SearchStore.position(in: searchDB), in: mainDB)
            {
                lost = try LostEntries.find(applied: applied, latest: latest, main: mainDB, search: searchDB)
            }
            let tokenTexts = try SearchStore.tokenTexts(in: searchDB)
            let prefixKeyIDs = Dictionary(
                try SearchStore.prefixKeyIDs(in: searchDB).map { (CodePointKey($0.key), $0.value) },
                uniquingKeysWith: { first, _ in first }
            )
            let entries = EntryDocumentCheck(
                storeID: stores.main.storeID, tokenTexts: tokenTexts, prefixKeyIDs: prefixKeyIDs,
                keysOfSeveralTokens: EntryDocumentCheck.keysOfSeveralTokens(tokenTexts.values),
                lost: Set(lost?.entries.map(\.number) ?? []))
            let (checked, tallies) = try entries.run(
                main: mainDB, search: searchDB, progress: progress, problems: &problems)
            try SyncLedgerCheck.run(in: mainDB, problems: &problems)
            let miscounted = try MainStore.tagFormMiscounts(in: mainDB)
            if miscounted > 0 {
                problems.add(
                    "tag forms", "\(miscounted) counts of the forms tags are written in disagree with the tags")
            }
            // The search store's postings, days, lengths and totals hold the entries lost too:
            // they are the record of them kept until the user decides, not a problem of their own.
            guard lost == nil else { return checked }
            try PostingCheck.run(
                .tokens, name: "tokens", expected: tallies.tokens, owners: Set(tokenTexts.keys), in: searchDB,
                problems: &problems)
            try PostingCheck.run(
                .prefixKeys, name: "prefix keys", expected: tallies.prefixKeys, owners: Set(prefixKeyIDs.values),
                in: searchDB,
                problems: &problems)
            try DateBucketCheck.run(expected: tallies.days, in: searchDB, problems: &problems)
            try DocumentLengthCheck.run(expected: tallies.lengths, in: searchDB, problems: &problems)
            let totals = try SearchStore.totals(in: searchDB)
            if totals != (tallies.documents, tallies.words) {
                problems.add(
                    "totals",
                    "the search store counts \(totals.documents) documents of \(totals.words) words, not \(tallies.documents) of \(tallies.words)"
                )
            }
            try PrefixTableCheck.run(tokenTexts: tokenTexts, search: stores.search, in: searchDB, problems: &problems)
            return checked
        }
        if try FTS5Peer.isBuilt(in: stores.main), let failure = FTS5Peer.integrityProblem(in: stores.main) {
            problems.add("fts5", "the FTS5 peer disagrees with the entries: \(failure)")
        }
        let lostLines = lost.map { $0.entries.isEmpty ? [$0.summary] : $0.lines } ?? []
        var report = VerificationReport(entries: checked, problems: lostLines + problems.lines)
        report.entriesDamaged = entriesDamaged
        report.lostEntries = lost
        return report
    }
}
