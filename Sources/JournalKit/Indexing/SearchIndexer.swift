import Foundation
import GRDB
import JournalText

/// Brings the search store up to date with the main store: the one path by which tokens
/// are written, after an add, an edit, a delete, an import, or a crash in the middle of any.
///
/// Each step reads the main store's change history (or, for a new or replaced search store,
/// every entry) in one snapshot, computes tokens from the stored canonical text, and applies
/// them in one search-store transaction that also saves how far it got. Batches are read,
/// broken into words and prepared on threads of their own while this one writes the batch
/// before (``ImportThread`` maps them); an import of one step has its entries broken into words
/// while they are written (``WordsAhead``), and its batch is made of those. How postings are
/// staged and merged is the ``MergePolicy``'s.
struct SearchIndexer {
    let main: MainStore
    let search: SearchStore
    /// Entries per search-store transaction, at most.
    var batchSize = 40_000
    /// Canonical text per search-store transaction, at most (bytes; a longer entry is a batch of
    /// its own). A batch's memory and its share of the log follow its words, and this bounds
    /// them for long entries; short ones stop at ``batchSize``. Each batch writes the postings of
    /// every token it holds, so batches of more short entries write fewer in all.
    var batchBytes = 10 << 20
    /// When the batches' postings are staged and merged.
    var mergePolicy = MergePolicy()
    /// Stops the work between batches; what was applied stays, and the rest waits for the
    /// next catch-up.
    var cancellation: Cancellation?
    /// An import's entries being broken into words (``WordsAhead``): the first batch is made
    /// of their words, taken on the thread that breaks batches, instead of read and broken when
    /// it would apply exactly their insert.
    var wordsAhead: WordsAhead?

    /// Applies every change the search store has not seen yet, then rewrites the prefix table
    /// file if it has fallen behind. When another process is applying them already, this
    /// one leaves the work to it: it returns at once, or, given `change`, once the search
    /// store has applied that change (or when the other process makes no progress for the
    /// busy timeout; the change is then applied by whichever command comes next).
    ///
    /// A writer passes the lock it took just before its commit (`holding`), so that no other
    /// process starts applying its change first (a search would then do the writer's work).
    ///
    /// Returns what it found that the user should hear about (``Finding``).
    @discardableResult
    func catchUp(
        progress: ProgressHandler? = nil, holding held: FileLock? = nil, waitingFor change: Int64? = nil
    ) throws(JournalError) -> Finding {
        var replaced: PrefixTableFile.Refusal?
        if let held {
            defer { held.release() }
            // A write that changed nothing (a sync with nothing new) leaves the search store
            // unwritten: not even its writer is opened, which would commit a transaction of its own.
            var isCurrent = try currentStanding().standing == .current
            if isCurrent { isCurrent = try !prefixFileIsStale() }
            if !isCurrent { replaced = try applyEverything(progress: progress) }
        }
        var rebuildReason: String?
        var found: Finding {
            rebuildReason.map(Finding.rebuilt) ?? replaced.map(Finding.replacedPrefixFile) ?? .nothing
        }
        var lastProgress = ContinuousClock.now
        var lastApplied = Int64.min
        // The holder checks again after letting go, so a change committed while it held the lock
        // (whose writer then found the lock taken) is never left unapplied.
        while true {
            let (position, standing) = try currentStanding()
            if standing == .current, try !prefixFileIsStale() { return found }
            if case .entriesLost(let applied, let latest) = standing {
                return .entriesLost(applied: applied, latest: latest)
            }
            if rebuildReason == nil, !position.isFresh, case .mustRebuild(let why) = standing { rebuildReason = why }
            if let lock = try CatchUpLock.tryAcquire(besides: search.url) {
                defer { lock.release() }
                replaced = try applyEverything(progress: progress) ?? replaced
                continue
            }
            guard let change else { return found }
            let applied = try appliedChange()
            if applied >= change { return found }
            if applied != lastApplied { (lastApplied, lastProgress) = (applied, .now) }
            if ContinuousClock.now - lastProgress > .seconds(StoreDatabase.busyTimeout) { return found }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// What a catch-up found that the user should hear about.
    enum Finding: Equatable {
        /// Nothing: the store was new, or caught up (or another process is catching it up).
        case nothing
        /// The search store could not catch up and was rebuilt, for this reason
        /// (``IndexStanding/mustRebuild(_:)``), when it was not new.
        case rebuilt(String)
        /// The main store lost changes the search store applied (``IndexStanding/entriesLost(applied:latest:)``):
        /// nothing was applied.
        case entriesLost(applied: Int64, latest: Int64)
        /// The prefix table's file the search store names was missing or damaged (``PrefixTableFile/Refusal``),
        /// and was saved again.
        case replacedPrefixFile(PrefixTableFile.Refusal)
    }

    /// Applies every pending change; the caller holds the catch-up lock. Returns why the prefix
    /// table's file it saved again could not be used, when it was missing or damaged (not merely
    /// behind the tokens or of an earlier layout): under the lock, no other process is saving
    /// one, so a file that does not map is no file caught half-saved.
    private func applyEverything(progress: ProgressHandler?) throws(JournalError) -> PrefixTableFile.Refusal? {
        var done = 0
        // A reindex in another process (which resets the store), or an indexer that does not take
        // the lock (a test's), may still move the position under us: the batches prepared from
        // the old one are then dropped and preparing starts again from the new one.
        while try !applyPreparedBatches(done: &done, progress: progress) {}
        return try StoreDatabase.guarded(search.url) {
            try search.pool.write { db in
                var replaced: PrefixTableFile.Refusal?
                if try PrefixSnapshot.isStale(in: db, searchStore: search) {
                    let refusal = try PrefixSnapshot.refusal(in: db, searchStore: search)
                    if refusal == .missing || refusal == .unusable { replaced = refusal }
                    try PrefixSnapshot.save(in: db, searchStore: search)
                }
                try FreePages.giveBack(in: db)
                return replaced
            }
        }
    }

    /// The last change the search store has wholly applied (none while it is being rebuilt).
    private func appliedChange() throws(JournalError) -> Int64 {
        let position = try StoreDatabase.guarded(search.url) { try search.pool.read(SearchStore.position(in:)) }
        return position.rebuildFrom == nil ? position.appliedChange : -1
    }

    /// The search store's position and how it stands against the main store, found with reads
    /// only, so that a search never waits for the search store's write lock when there is
    /// nothing to write.
    func currentStanding() throws(JournalError) -> (position: SearchStore.Position, standing: IndexStanding) {
        let position = try StoreDatabase.guarded(search.url) { try search.pool.read(SearchStore.position(in:)) }
        return (
            position,
            try StoreDatabase.guarded(main.url) { try main.pool.read { db in try IndexStanding.of(position, in: db) } }
        )
    }

    /// Whether the prefix table's file should be saved again.
    private func prefixFileIsStale() throws(JournalError) -> Bool {
        try StoreDatabase.guarded(search.url) {
            try search.pool.read { db in try PrefixSnapshot.isStale(in: db, searchStore: search) }
        }
    }

    /// What one batch applies, as read from the main store.
    private struct BatchSpan: Sendable {
        /// The position the search store must be at for this batch to apply, and after it.
        let from: SearchStore.Position
        let to: SearchStore.Position
        let removals: [ClosedRange<Int64>]
        /// The first entry of the insert change this batch applies in part, which readers must
        /// not see yet (``SearchVisibility``); nil when the batch leaves no change in part.
        let hiddenFrom: Int64?
        /// The entries to index, in number order.
        let entries: [(number: Int64, date: JournalDate)]
    }

    /// One batch, read and analysed, ready to write.
    private struct PreparedBatch: Sendable {
        let span: BatchSpan
        /// Every distinct token and prefix key of the batch once: the writer looks up each once
        /// per batch, not once per entry.
        let texts: ByOwner<[String]>
        /// Each entry's tokens, as indexes into `texts.token` (an entry's prefix keys are found
        /// again from its tokens if needed).
        let entryTokens: [[Int32]]
        /// Each entry's number of words.
        let entryLengths: [Int]
        /// Each token's prefix keys, as indexes into `texts.prefixKey`.
        let keys: TokenKeys
        /// Each token's and each prefix key's entries (a token's with its positions), listed on a
        /// thread of their own while the writer resolves the batch's texts and writes its documents.
        let postings: Deferred<ByOwner<BatchPostings>>
        var count: Int { span.entries.count + span.removals.count }
    }

    /// Prepares batches on two other threads and writes them here. Returns false when the saved
    /// position was not the expected one (another process caught up meanwhile).
    ///
    /// Each batch waits for the checkpoints a write to either store left running aside
    /// (``StoreFile/checkpointAside(emptying:start:)``): the search store's before it starts, so that
    /// it writes that log from its start again, and the main store's before it commits, so that
    /// the two logs are not at their largest at once, while the main store's copy runs beside the
    /// batch's first writes (waited for before the batch, it kept the writer idle). Each leaves
    /// its own pages to such a checkpoint, which copies them while the next batch is taken, or,
    /// after the last, while the prefix table is saved.
    private func applyPreparedBatches(done: inout Int, progress: ProgressHandler?) throws(JournalError) -> Bool {
        let (start, total) = try StoreDatabase.guarded(search.url) {
            try search.pool.write { searchDB in
                try main.pool.read { mainDB in
                    if case .mustRebuild = try IndexStanding.of(SearchStore.position(in: searchDB), in: mainDB) {
                        try SearchStore.reset(in: searchDB, from: mainDB)
                    }
                    let position = try SearchStore.position(in: searchDB)
                    return (position, try Self.pendingEntries(after: position, in: mainDB))
                }
            }
        }
        let handOff = try startPreparing(from: start)
        defer { handOff.cancel() }
        var caches = ByOwner(OwnerIDCache.init)
        var tails = ByOwner { _ in PostingTails(budget: Self.cachedTailBytes) }
        let doneBefore = done
        while let batch = try handOff.take()?.get() {
            try cancellation?.check()
            let count = batch.count
            let isLast = done + count >= doneBefore + total
            search.waitForCheckpointAside()
            let (applied, leftLog) = try search.writeLeavingLog { searchDB in
                let applied = try apply(batch, in: searchDB, isLast: isLast, caches: &caches, tails: &tails)
                main.waitForCheckpointAside()
                return applied
            }
            if leftLog {
                try search.checkpointAside(emptying: false, start: ImportThread.checkpoint(emptying: false).start)
            }
            guard applied else { return false }
            done += count
            // Freed on another thread, which then hands what the batch and its writes freed back
            // to the system, so that memory stays what the next batch needs, not the most the
            // threads ever held.
            BackgroundRelease.release(batch)
            progress?(JournalProgress(phase: .indexing, done: done, total: max(doneBefore + total, done)))
        }
        BackgroundRelease.release((caches, tails))
        return true
    }

    /// Starts the batch preparer, which starts the batch reader: the reader breaks the batch after
    /// next into words while the preparer merges the next one's and the writer writes
    /// (``ImportThread``). The first failure is the last value handed over.
    private func startPreparing(
        from start: SearchStore.Position
    ) throws(JournalError) -> HandOff<Result<PreparedBatch, JournalError>> {
        try HandOff.start(priority: ImportThread.batchPreparer.priority) { [self] handOff in
            let words: HandOff<Result<BrokenBatch, JournalError>>
            do throws(JournalError) {
                words = try startReading(from: start)
            } catch {
                _ = handOff.put(.failure(error))
                return
            }
            defer { words.cancel() }
            while let broken = words.take() {
                let prepared = broken.flatMap { broken in
                    Result { () throws(JournalError) in try Self.prepare(broken) }
                }
                guard handOff.put(prepared), case .success = prepared else { return }
            }
        }
    }

    /// Starts the batch reader: each batch after `start` read from the main store (or taken
    /// from the words broken ahead) and broken into words.
    private func startReading(
        from start: SearchStore.Position
    ) throws(JournalError) -> HandOff<Result<BrokenBatch, JournalError>> {
        try HandOff.start(priority: ImportThread.batchReader.priority) { [self] words in
            var position = start
            var ahead = wordsAhead?.takeWords()
            while words.waitForRoom() {
                let batch = Result { () throws(JournalError) -> BrokenBatch? in
                    if let ahead, let batch = try batchBrokenAhead(from: position, of: ahead) { return batch }
                    return try breakBatch(from: position)
                }
                ahead = nil
                guard case .success(let broken?) = batch else {
                    if case .failure(let error) = batch { _ = words.put(.failure(error)) }
                    return
                }
                guard words.put(.success(broken)) else { return }
                position = broken.span.to
            }
        }
    }

    /// A batch read and broken into words, slice by slice, each slice with its own numbering of
    /// its distinct tokens; `keys`, when the batch is one slice whose keys were found ahead, the
    /// keys of its tokens.
    private struct BrokenBatch: Sendable {
        let span: BatchSpan
        let slices: [BrokenSlice]
        var keys: TokenKeys?
    }

    /// The batch of words broken ahead (``WordsAhead``), when the one change after `position` is
    /// the insert of exactly their entries and a batch read from the main store would have held
    /// them all; nil otherwise.
    private func batchBrokenAhead(
        from position: SearchStore.Position, of ahead: WordsAhead.Words
    ) throws(JournalError)
        -> BrokenBatch?
    {
        guard position.rebuildFrom == nil, position.resumeAfterEntry == 0, let first = ahead.entries.first,
            let last = ahead.entries.last, ahead.entries.count <= batchSize, ahead.bytes <= batchBytes
        else { return nil }
        let changes = try StoreDatabase.guarded(main.url) {
            try main.pool.read { db in try MainStore.changes(in: db, after: position.appliedChange, limit: 2) }
        }
        guard changes.count == 1, let change = changes.first, change.kind == .insert,
            change.entries == first.number...last.number
        else { return nil }
        var next = position
        next.appliedChange = change.sequence
        next.appliedTag = change.tag
        let span = BatchSpan(from: position, to: next, removals: [], hiddenFrom: nil, entries: ahead.entries)
        return BrokenBatch(span: span, slices: [ahead.slice], keys: ahead.keys)
    }

    /// Reads the batch after `position` and breaks it into words; nil when there is nothing left.
    private func breakBatch(from position: SearchStore.Position) throws(JournalError) -> BrokenBatch? {
        var next = position
        var work = try StoreDatabase.guarded(main.url) {
            try main.pool.read { db in try collectWork(from: db, advancing: &next) }
        }
        guard next != position else { return nil }
        // Several changes may touch one entry; its current state is indexed once, in number order.
        var latest: [Int64: MainStore.CanonicalRow] = [:]
        for row in work.upserts { latest[row.number] = row }
        let rows = latest.values.sorted { $0.number < $1.number }
        (latest, work.upserts) = ([:], [])
        // Each core breaks its slice of the batch into words and numbers the slice's distinct
        // tokens; `prepare` merges the slices, hashing each distinct token once per slice.
        let slices = rows.parallelSlices(priority: ImportThread.wordBreaker.priority) { slice in
            var builder = BrokenSlice.Builder(entries: slice.count)
            for row in slice { builder.add(canonical: row.canonical) }
            return builder.finish()
        }
        // The texts are tokens now: only the entries' numbers and dates are needed from here on.
        let span = BatchSpan(
            from: position, to: next, removals: work.removals, hiddenFrom: work.hiddenFrom,
            entries: rows.map { (number: $0.number, date: $0.date) })
        return BrokenBatch(span: span, slices: slices)
    }

    /// Merges a broken batch's slices: numbers its distinct tokens and prefix keys once for the
    /// batch, and starts listing each one's entries (``PreparedBatch/postings``).
    private static func prepare(_ broken: BrokenBatch) throws(JournalError) -> PreparedBatch {
        let (entries, slices) = (broken.span.entries, broken.slices)
        let (tokens, entryTokens, entryLengths): ([String], [[Int32]], [Int])
        let keys: TokenKeys
        if slices.count == 1, let slice = slices.first {
            // One slice (an import's words broken ahead) is numbered already.
            (tokens, entryTokens, entryLengths) = (slice.texts, slice.entryTokens, slice.entryLengths)
            keys = broken.keys ?? TokenKeys(of: slice.texts)
        } else {
            var numbering = WordNumbering(capacity: entries.count)
            var keysBuilder = TokenKeys.Builder(capacity: entries.count / 4)
            var (merged, lengths): ([[Int32]], [Int]) = ([], [])
            merged.reserveCapacity(entries.count)
            lengths.reserveCapacity(entries.count)
            for slice in slices {
                let global = slice.texts.map { text in
                    var text = text
                    return text.withUTF8 { utf8 in
                        let (number, isNew) = numbering.number(of: utf8)
                        if isNew { keysBuilder.add(token: utf8) }
                        return number
                    }
                }
                lengths += slice.entryLengths
                for local in slice.entryTokens { merged.append(local.map { global[Int($0)] }) }
            }
            (tokens, entryTokens, entryLengths, keys) = (numbering.words, merged, lengths, keysBuilder.finish())
        }
        let entryPositions = slices.flatMap(\.entryPositions)
        let tokenCount = tokens.count
        // Listed on a thread started from the stage that gave way: below the writer, which wants
        // them once it has resolved the batch's tokens and written its documents.
        let postings = try Deferred(priority: ImportThread.postingLister.priority) { [entryTokens, keys] in
            ByOwner { owner in
                switch owner {
                case .token:
                    Self.tokenPostings(
                        owners: tokenCount, entries: entries, entryTokens: entryTokens, entryPositions: entryPositions)
                case .prefixKey:
                    Self.keyPostings(
                        entries: entries, entryTokens: entryTokens, entryPositions: entryPositions, keys: keys)
                }
            }
        }
        let texts = ByOwner { owner in owner == .token ? tokens : keys.texts }
        return PreparedBatch(
            span: broken.span, texts: texts, entryTokens: entryTokens, entryLengths: entryLengths, keys: keys,
            postings: postings)
    }

    /// Each token's entries with its position lists there: token `t` is `entryTokens[e][i]`
    /// for entry `e`, whose i-th list in `entryPositions[e]` is its.
    private static func tokenPostings(
        owners: Int, entries: [(number: Int64, date: JournalDate)], entryTokens: [[Int32]], entryPositions: [[UInt8]]
    ) -> BatchPostings {
        BatchPostings(owners: owners) { link in
            for (index, tokens) in entryTokens.enumerated() {
                entryPositions[index].withUnsafeBufferPointer { lists in
                    var start = 0
                    for token in tokens {
                        let end = PositionLists.offset(after: 1, in: lists, from: start)!
                        link(token, entries[index].number, UnsafeBufferPointer(rebasing: lists[start..<end]))
                        start = end
                    }
                }
            }
        }
    }

    /// Each prefix key's entries: an entry's keys are the union of its tokens' keys (``TokenKeys``),
    /// marked off in an array; a key that keeps positions (``PostingOwner/keepsPositions(key:)``)
    /// has, in each entry, its lists from ``keyPositionLists(entryTokens:entryPositions:keys:keepsPositions:)``.
    private static func keyPostings(
        entries: [(number: Int64, date: JournalDate)], entryTokens: [[Int32]], entryPositions: [[UInt8]],
        keys: TokenKeys
    ) -> BatchPostings {
        let (owners, tokenKeys, tokenKeyStarts) = (keys.texts.count, keys.tokenKeys, keys.tokenKeyStarts)
        let keepsPositions = keys.texts.map { PostingOwner.keepsPositions(key: $0) }
        // Made once: the links are asked for twice.
        let lists = keyPositionLists(
            entryTokens: entryTokens, entryPositions: entryPositions, keys: keys, keepsPositions: keepsPositions)
        return BatchPostings(owners: owners) { link in
            var lastEntryOfKey = [Int](repeating: -1, count: owners)
            var next = 0
            lists.bytes.withUnsafeBufferPointer { bytes in
                for (index, tokens) in entryTokens.enumerated() {
                    let number = entries[index].number
                    for token in tokens {
                        for key in tokenKeys[tokenKeyStarts[Int(token)]..<tokenKeyStarts[Int(token) + 1]]
                        where !keepsPositions[Int(key)] && lastEntryOfKey[Int(key)] != index {
                            lastEntryOfKey[Int(key)] = index
                            link(key, number, UnsafeBufferPointer(start: nil, count: 0))
                        }
                    }
                    while next < lists.keys.count, lists.entries[next] == index {
                        link(
                            lists.keys[next], number,
                            UnsafeBufferPointer(rebasing: bytes[lists.ends[next]..<lists.ends[next + 1]]))
                        next += 1
                    }
                }
            }
        }
    }

    /// The lists of the keys that keep positions, entry after entry: key `keys[i]` in entry
    /// `entries[i]` (an index into `entryTokens`) has the list `bytes[ends[i]..<ends[i + 1]]`,
    /// length first, as a segment stores it. A key that one token of the entry starts with has
    /// that token's list, copied; one that several do, their lists merged (a position holds one
    /// token).
    private static func keyPositionLists(
        entryTokens: [[Int32]], entryPositions: [[UInt8]], keys: TokenKeys, keepsPositions: [Bool]
    ) -> (keys: [Int32], entries: [Int], ends: [Int], bytes: [UInt8]) {
        let (tokenKeys, tokenKeyStarts) = (keys.tokenKeys, keys.tokenKeyStarts)
        var result: (keys: [Int32], entries: [Int], ends: [Int], bytes: [UInt8]) = ([], [], [0], [])
        // The entry's (key, token's list) pairs; a token has one key of each length at most.
        var pairs: [(key: Int32, list: Range<Int>)] = []
        var merged: [UInt32] = []
        for (index, tokens) in entryTokens.enumerated() {
            pairs.removeAll(keepingCapacity: true)
            entryPositions[index].withUnsafeBufferPointer { bytes in
                var offset = 0
                for token in tokens {
                    let start = offset
                    _ = PositionLists.nextList(in: bytes, at: &offset)!
                    for key in tokenKeys[tokenKeyStarts[Int(token)]..<tokenKeyStarts[Int(token) + 1]]
                    where keepsPositions[Int(key)] {
                        pairs.append((key, start..<offset))
                    }
                }
                pairs.sort { $0.key < $1.key }
                var first = 0
                while first < pairs.count {
                    var end = first + 1
                    while end < pairs.count, pairs[end].key == pairs[first].key { end += 1 }
                    if end == first + 1 {
                        result.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pairs[first].list]))
                    } else {
                        merged.removeAll(keepingCapacity: true)
                        for pair in pairs[first..<end] {
                            var at = pair.list.lowerBound
                            _ = PositionLists.decode(PositionLists.nextList(in: bytes, at: &at)!, appendingTo: &merged)
                        }
                        merged.sort()
                        PositionLists.append(merged, to: &result.bytes)
                    }
                    result.keys.append(pairs[first].key)
                    result.entries.append(index)
                    result.ends.append(result.bytes.count)
                    first = end
                }
            }
        }
        return result
    }

    /// Writes one batch; false (and nothing written) when the store is not where the batch
    /// starts. `isLast`: the changes pending when the catch-up started end with this batch.
    private func apply(
        _ batch: PreparedBatch, in searchDB: Database, isLast: Bool,
        caches: inout ByOwner<OwnerIDCache>, tails: inout ByOwner<PostingTails>
    ) throws -> Bool {
        let span = batch.span
        guard try SearchStore.position(in: searchDB) == span.from else { return false }
        for owner in PostingOwner.allCases {
            try caches[owner].validate(in: searchDB)
            // The last batch keeps no ids or tails for a next one: keeping them, and freeing them
            // after, is work for nothing. Should another process's change come in after all, its
            // batches find ids and tails in the store.
            caches[owner].remembersAdded = !isLast
            tails[owner].keepsNone = isLast
        }
        let staged = try PostingRuns.staged(in: searchDB)
        var writer = try SearchStoreWriter(db: searchDB, rows: RowProducer(), store: search)
        let addsOnly = span.removals.isEmpty && span.entries.allSatisfy { $0.number > writer.largestExisting }
        // A rebuild that goes on after this batch adds entries above every document, as an insert
        // in part does: its batches are staged and hidden likewise, until a batch merges them.
        let rebuildGoesOn = span.to.rebuildFrom != nil
        let plan = mergePolicy.plan(
            hidesEntries: span.hiddenFrom != nil || rebuildGoesOn, addsOnly: addsOnly, stagedRuns: staged.count)
        // Hidden before the batch adds to the totals, which readers keep seeing as they were.
        let hiddenFrom = span.hiddenFrom ?? (plan.postings == .stage ? span.entries.first?.number : nil)
        if let hiddenFrom { try SearchVisibility.hide(from: hiddenFrom, in: searchDB) }
        if plan.mergeFirst { try mergeRuns(tails: &tails, in: searchDB) }
        let ids = try writeDocuments(of: batch, with: &writer, caches: &caches)
        let postings = batch.postings.value
        var removed = false
        for owner in PostingOwner.allCases {
            if plan.postings == .write {
                removed =
                    try writer.finish(owner, adding: postings[owner], ids: ids[owner], tails: &tails[owner]) || removed
            } else {
                try writer.stage(owner, adding: postings[owner], ids: ids[owner], run: staged.next)
            }
        }
        switch plan.postings {
        case .write: try writer.mergeRecentIfLarge(tails: &tails, merges: mergePolicy.mergesRecent)
        case .stageAndMerge: try mergeRuns(tails: &tails, in: searchDB)
        case .stage: break
        }
        if removed {
            try SearchStore.bumpTokenGeneration(in: searchDB)
            for owner in PostingOwner.allCases { try caches[owner].validate(in: searchDB) }
        }
        if hiddenFrom == nil { try SearchVisibility.showAll(in: searchDB) }
        try SearchStore.save(span.to, in: searchDB)
        for owner in PostingOwner.allCases {
            caches[owner].limit(to: Self.cachedIDs)
            tails[owner].endRound()
        }
        return true
    }

    /// Removes the batch's removals, resolves its tokens and prefix keys to ids, and writes its
    /// documents; returns the ids, indexed as the batch's texts are.
    private func writeDocuments(
        of batch: PreparedBatch, with writer: inout SearchStoreWriter, caches: inout ByOwner<OwnerIDCache>
    ) throws -> ByOwner<[Int64]> {
        let span = batch.span
        for range in span.removals { try writer.removeDocuments(in: range) }
        let tokenIDs = try writer.resolve(batch.texts.token, cache: &caches.token)
        let keyIDs = try writer.resolveKeys(
            batch.texts.prefixKey, tokenIDs: tokenIDs, tokenKeys: batch.keys.tokenKeys,
            tokenKeyStarts: batch.keys.tokenKeyStarts, cache: &caches.prefixKey)
        let ids = ByOwner { owner in owner == .token ? tokenIDs : keyIDs }
        // Entries come in number order: those past every document of the store are new ones.
        let firstNew = span.entries.firstIndex { $0.number > writer.largestExisting } ?? span.entries.endIndex
        for (index, entry) in span.entries[..<firstNew].enumerated() {
            let tokens = batch.entryTokens[index]
            try writer.upsert(
                number: entry.number, date: entry.date, tokenIDs: tokens.map { ids.token[Int($0)] },
                length: batch.entryLengths[index],
                tokens: { tokens.map { batch.texts.token[Int($0)] } })
        }
        try writer.addDocuments(
            span.entries[firstNew...], entryTokens: batch.entryTokens[firstNew...],
            lengths: batch.entryLengths[firstNew...], ids: ids.token)
        try writer.finishDocuments()
        return ids
    }

    /// Merges the staged runs of tokens and prefix keys into their segments.
    private func mergeRuns(tails: inout ByOwner<PostingTails>, in searchDB: Database) throws {
        for owner in PostingOwner.allCases { try owner.runs.merge(tails: &tails[owner], in: searchDB) }
    }

    /// How many token and key ids, and how many bytes of last segments, the writer keeps
    /// between batches: each grows with the journal (a miss costs one indexed read), so past
    /// these the ids start again and the least recently used last segments go, and indexing
    /// stays within bounded memory at ten million entries.
    private static let cachedIDs = 300_000
    private static let cachedTailBytes = 48 << 20

    private struct Work {
        var upserts: [MainStore.CanonicalRow] = []
        var removals: [ClosedRange<Int64>] = []
        var hiddenFrom: Int64?
    }

    /// What to apply next, read from one snapshot of the main store: the current state of each
    /// entry a pending change touched. Every step is idempotent, so a batch that a crash undid
    /// is simply done again.
    ///
    /// An insert too large for what is left of a batch starts a batch of its own, and while it
    /// takes more than one, its entries stay hidden from readers (``SearchVisibility``).
    private func collectWork(from db: Database, advancing position: inout SearchStore.Position) throws -> Work {
        var work = Work()
        if let rebuildFrom = position.rebuildFrom {
            let read = try MainStore.canonicalRows(
                in: db, rebuildFrom...Int64.max, limit: batchSize, bytes: batchBytes)
            work.upserts = read.rows
            position.rebuildFrom = read.full ? read.rows[read.rows.count - 1].number + 1 : nil
            return work
        }
        var budget = batchSize
        var bytesLeft = batchBytes
        for change in try MainStore.changes(in: db, after: position.appliedChange, limit: 1_000) {
            guard budget > 0, bytesLeft > 0 else { break }
            let batchHasWork = budget < batchSize || bytesLeft < batchBytes
            switch change.kind {
            case .delete:
                work.removals.append(change.entries)
                budget -= 1
            case .insert, .update:
                if position.resumeAfterEntry == 0, batchHasWork, change.entries.count > budget { return work }
                let from = max(change.entries.lowerBound, position.resumeAfterEntry + 1)
                let read = try MainStore.canonicalRows(
                    in: db, from...change.entries.upperBound, limit: budget, bytes: bytesLeft)
                let cut = read.full && (read.rows.last?.number ?? change.entries.upperBound) < change.entries.upperBound
                // A change that takes more than one batch starts one of its own: left for the next.
                if cut, position.resumeAfterEntry == 0, batchHasWork { return work }
                work.upserts += read.rows
                budget -= read.rows.count
                bytesLeft -= read.bytes
                if cut, let last = read.rows.last {
                    position.resumeAfterEntry = last.number
                    if change.kind == .insert { work.hiddenFrom = change.entries.lowerBound }
                    return work
                }
            }
            position.appliedChange = change.sequence
            position.appliedTag = change.tag
            position.resumeAfterEntry = 0
        }
        return work
    }

    /// How far a search store at `position` is behind the main store read in `db`: nil when it
    /// has applied every change. Counts entry numbers, as the changes record them.
    static func progress(at position: SearchStore.Position, in db: Database) throws -> IndexingProgress? {
        if position.rebuildFrom == nil, position.resumeAfterEntry == 0,
            try MainStore.lastChange(in: db) == position.appliedChange
        {
            return nil
        }
        let pending = try pendingEntries(after: position, in: db)
        guard pending > 0 || position.rebuildFrom != nil || position.resumeAfterEntry > 0 else { return nil }
        var indexed = 0
        if position.rebuildFrom == nil, position.resumeAfterEntry > 0,
            let change = try MainStore.changes(in: db, after: position.appliedChange, limit: 1).first
        {
            indexed = Int(max(0, position.resumeAfterEntry - change.entries.lowerBound + 1))
        }
        return IndexingProgress(
            pendingEntries: pending, indexedEntries: indexed, isRebuilding: position.rebuildFrom != nil)
    }

    /// About how many entries the pending changes hold, for progress.
    private static func pendingEntries(after position: SearchStore.Position, in db: Database) throws -> Int {
        let changed = try MainStore.entriesChanged(after: position.appliedChange, in: db)
        guard let rebuildFrom = position.rebuildFrom else { return changed }
        return changed + (try MainStore.entryCount(from: rebuildFrom, in: db))
    }
}
