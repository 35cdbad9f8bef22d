import Dispatch
import Foundation

/// The calls that can block, for Swift concurrency.
///
/// A journal call may wait: for SQLite's write lock while another process imports, for another
/// process applying the change history, or for the disk. Each of these forms runs the call on a
/// dispatch thread, not on the cooperative pool that every task shares, and suspends the
/// calling task until it is done. The long ones stop when their task is cancelled, throwing
/// ``JournalError/Kind/cancelled``: an import before its last step (nothing stays written), a search
/// or a verification in the middle of a scan, a reindex between batches (what it rebuilt
/// stays; the rest resumes the next time the journal is opened for writing).
extension Journal {
    /// Adds one entry.
    @discardableResult
    public func add(_ entry: NewEntry) async throws(JournalError) -> Entry {
        try await Self.offThePool { _ throws(JournalError) in try self.add(entry) }
    }

    /// Imports JSON Lines, all or nothing; cancelled before its last step, it leaves nothing.
    public func importJSONLines(
        from reader: JSONLinesReader, keepingDuplicates: Bool = false, progress: ProgressHandler? = nil
    ) async throws(JournalError) -> ImportSummary {
        nonisolated(unsafe) let reader = reader
        return try await Self.offThePool { cancellation throws(JournalError) in
            try self.importEntries(
                from: reader, input: "", keepingDuplicates: keepingDuplicates, progress: progress,
                cancellation: cancellation)
        }
    }

    /// Imports a file in any ``ImportFormat``, all or nothing; cancelled before its last step, it
    /// leaves nothing. `password` opens an encrypted jrnl journal.
    public func importFile(
        atPath path: String, format: ImportFormat? = nil, password: Passphrase? = nil, keepingDuplicates: Bool = false,
        progress: ProgressHandler? = nil
    ) async throws(JournalError)
        -> ImportSummary
    {
        try await Self.offThePool { cancellation throws(JournalError) in
            try self.importFile(
                atPath: path, format: format, password: password, keepingDuplicates: keepingDuplicates,
                progress: progress, cancellation: cancellation)
        }
    }

    /// Changes an entry's text, date, or both; refused as a conflict when the entry is no longer
    /// `basedOn` (see ``edit(_:text:date:basedOn:)-2qvwi``).
    @discardableResult
    public func edit(
        _ id: EntryID, text: String? = nil, date: JournalDate? = nil, basedOn: Entry? = nil
    ) async throws(JournalError) -> Entry {
        try await Self.offThePool { _ throws(JournalError) in
            try self.edit(id, text: text, date: date, basedOn: basedOn)
        }
    }

    /// Deletes an entry.
    public func delete(_ id: EntryID) async throws(JournalError) {
        try await Self.offThePool { _ throws(JournalError) in try self.delete(id) }
    }

    /// Deletes the entries `ids` in one write; returns how many there were.
    @discardableResult
    public func delete(_ ids: [EntryID]) async throws(JournalError) -> Int {
        try await Self.offThePool { _ throws(JournalError) in try self.delete(ids) }
    }

    /// Stars or unstars the entries `ids` in one write; returns how many there were.
    @discardableResult
    public func setStarred(_ starred: Bool, for ids: [EntryID]) async throws(JournalError) -> Int {
        try await Self.offThePool { _ throws(JournalError) in try self.setStarred(starred, for: ids) }
    }

    /// Gives the entries `ids` the tags `adding` and takes the given tags `removing` away, in
    /// one write; for each entry there was, the names of `removing` written in its text.
    @discardableResult
    public func changeTags(
        of ids: [EntryID], adding: [String], removing: [String]
    ) async throws(JournalError) -> [EntryID: [String]] {
        try await Self.offThePool { _ throws(JournalError) in
            try self.changeTags(of: ids, adding: adding, removing: removing)
        }
    }

    /// The tags of the entries `query` finds, with how many of them have each.
    public func tags(
        _ query: SearchQuery, strategy: SearchStrategy = SearchStrategies.standard
    ) async throws(JournalError) -> [TagCount] {
        try await Self.offThePool { _ throws(JournalError) in try self.tags(query, strategy: strategy) }
    }

    /// How many of the entries `query` finds fall in each `period`.
    public func entryCounts(
        by period: CountingPeriod, _ query: SearchQuery = SearchQuery(filter: .none),
        strategy: SearchStrategy = SearchStrategies.standard,
        timeZone: TimeZone = .current
    ) async throws(JournalError) -> [PeriodCount] {
        try await Self.offThePool { _ throws(JournalError) in
            try self.entryCounts(by: period, query, strategy: strategy, timeZone: timeZone)
        }
    }

    /// Searches with `strategy`; a cancelled task stops the scan.
    public func search(
        _ query: SearchQuery, strategy: SearchStrategy = SearchStrategies.standard, page: PageRequest = .first
    ) async throws(JournalError) -> SearchResults {
        try await Self.offThePool { cancellation throws(JournalError) in
            try self.search(query, strategy: strategy, page: page, progress: nil, cancellation: cancellation)
        }
    }

    /// Reads `text` as a query within `filter` and searches it with `strategy`; a cancelled task
    /// stops the scan.
    public func search(
        _ text: String, strategy: SearchStrategy = SearchStrategies.standard, page: PageRequest = .first,
        filter: EntryFilter = .none
    ) async throws(JournalError) -> SearchResults {
        try await search(SearchQuery(text, filter: filter), strategy: strategy, page: page)
    }

    /// Entries newest first.
    public func list(
        _ page: PageRequest = .first, filter: EntryFilter = .none
    ) async throws(JournalError) -> (total: Int, entries: [Entry]) {
        let listed = try await Self.offThePool { _ throws(JournalError) in
            let (total, entries) = try self.list(page, filter: filter)
            return Listed(total: total, entries: entries)
        }
        return (listed.total, listed.entries)
    }

    /// Checks every derived structure against the entries; a cancelled task stops the check.
    public func verify(progress: ProgressHandler? = nil) async throws(JournalError) -> VerificationReport {
        try await Self.offThePool { cancellation throws(JournalError) in
            try self.verify(progress: progress, cancellation: cancellation)
        }
    }

    /// Rebuilds everything derived from the entries' text; a cancelled task stops it between
    /// batches.
    public func reindex(progress: ProgressHandler? = nil) async throws(JournalError) {
        try await Self.offThePool { cancellation throws(JournalError) in
            try self.reindex(progress: progress, cancellation: cancellation)
        }
    }

    /// Exchanges changes with the folder it syncs through (``sync(through:passphrase:progress:)-6qhxh``).
    public func sync(
        through folder: URL? = nil, passphrase: Passphrase? = nil, progress: ProgressHandler? = nil
    ) async throws(JournalError) -> SyncReport {
        try await Self.offThePool { _ throws(JournalError) in
            try self.sync(through: folder, passphrase: passphrase, progress: progress)
        }
    }

    private struct Listed: Sendable {
        let total: Int
        let entries: [Entry]
    }

    /// Runs `work` on a dispatch thread and suspends the caller until it returns, raising the
    /// cancellation flag it is given when the calling task is cancelled.
    private static func offThePool<T: Sendable>(
        _ work: @escaping @Sendable (Cancellation) throws(JournalError) -> T
    ) async throws(JournalError) -> T {
        let cancellation = Cancellation()
        let result: Result<T, JournalError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(
                        returning: Result { () throws(JournalError) -> T in
                            try cancellation.check()
                            return try work(cancellation)
                        })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
