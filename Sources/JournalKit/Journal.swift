import Foundation
import JournalText

/// A journal: entries in the main store, their tokens in the search store beside it, and
/// every search strategy over them. Embed it to read and write a journal from Swift.
///
/// Every write goes through the main store, which records it in its change history in the
/// same transaction; the search store then catches up from that history. Opening a journal
/// catches up too, so a crash between the two never leaves them disagreeing for long. One
/// process at a time applies the history: a writer from just before its commit until its
/// change is applied; meanwhile other processes search what is indexed.
public final class Journal: Sendable {
    /// The folder the journal lives in.
    public let directory: StoreDirectory
    /// Its files, opened (``JournalStores``).
    let stores: JournalStores
    package var main: MainStore { stores.main }
    package var search: SearchStore { stores.search }
    package let prefixTables: PrefixTableCache
    let dateOrders = DateOrderCache()
    /// What happened while opening that the user should hear about: a search store replaced
    /// because it was damaged, the prefix table's file saved again because it was missing or
    /// damaged, or an index left behind the entries because it could not be written.
    public let notices: [String]
    /// Why the journal can't be written (its folder or file system is read-only), or nil when
    /// it can. A journal that can't be written still answers every read from what is stored.
    public let readOnlyReason: String?
    /// Announces this journal's searches to an import that gives way to them (``SearchPriority``):
    /// each search while it runs, or, for a journal opened for one answer, the whole process.
    private let presence: SearchPresence?

    /// Opens the journal in `directory` and brings its search store up to date. With `create`,
    /// a missing journal is created; without, it is an error (a mistyped folder then says so
    /// rather than showing an empty journal).
    ///
    /// A journal in a folder that can't be written is opened for reading only (see
    /// ``readOnlyReason``), and one whose index can't be brought up to date (a full disk)
    /// opens all the same: either way searches answer from what is indexed, and ``notices``
    /// says so.
    ///
    /// `use` says what the journal is opened for (``JournalUse``): kept open (the default), or
    /// one answer from a process that then exits, which opens less. A journal found up to date
    /// is opened without writing anything; the first write opens the stores for writing.
    ///
    /// An encrypted journal (see <doc:EncryptedJournals>) opens with its `passphrase`; without
    /// one it is a ``JournalError/Kind/passphraseRequired`` error, and with a wrong one a
    /// ``JournalError/Kind/wrongPassphrase`` error, nothing written either way. A journal in plain
    /// text takes no passphrase. `create` creates a journal in plain text: an encrypted one is
    /// created by ``create(in:passphrase:cost:progress:)``.
    public convenience init(
        directory: StoreDirectory, create: Bool = true, passphrase: Passphrase? = nil, use: JournalUse = .kept,
        progress: ProgressHandler? = nil
    ) throws(JournalError) {
        // A process that answers one search announces it from the start: opening is part of it.
        let presence = SearchPresence.announcer(besides: directory.searchStoreURL)
        if use == .oneAnswer { presence?.begin() }
        try self.init(
            JournalStores.open(directory, create: create, passphrase: passphrase, use: use), use: use,
            progress: progress, presence: presence)
    }

    /// The journal of `stores`, its search store brought up to date (when it can be written).
    init(
        _ stores: JournalStores, use: JournalUse, progress: ProgressHandler?, presence: SearchPresence? = nil
    ) throws(JournalError) {
        self.stores = stores
        self.presence = presence
        directory = stores.directory
        prefixTables = PrefixTableCache(mode: use == .kept ? .inMemory : .mapped)
        let readOnlyReason = stores.unwritable.map {
            "the journal in \(stores.directory.url.path) cannot be written: \($0)"
        }
        self.readOnlyReason = readOnlyReason
        var notices =
            stores.search.rebuildReason.map {
                ["rebuilding the search store \(stores.directory.searchStoreURL.path): \($0)"]
            } ?? []
        let indexer = SearchIndexer(main: stores.main, search: stores.search)
        if let readOnlyReason {
            let (position, standing) = try indexer.currentStanding()
            if case .entriesLost(let applied, let latest) = standing {
                notices.append(try Self.lossNotice(applied: applied, latest: latest, stores: stores))
            } else if case .mustRebuild(let why) = standing, !position.isFresh {
                notices.append(
                    "\(readOnlyReason); the search index does not match the entries (\(why)), and searches answer from it"
                )
            } else if standing != .current {
                notices.append(
                    "\(readOnlyReason); the search index is behind the entries, and searches answer from what is indexed"
                )
            }
        } else if use != .inspection {
            do {
                switch try indexer.catchUp(progress: progress) {
                case .nothing: break
                case .rebuilt(let why):
                    notices.append("rebuilt the search store \(stores.directory.searchStoreURL.path): \(why)")
                case .replacedPrefixFile(let refusal):
                    let path = PrefixSnapshot.fileURL(besides: stores.directory.searchStoreURL).path
                    notices.append(
                        "saved the prefix table's file \(path) again from the search store: it was \(refusal == .missing ? "missing" : "damaged")"
                    )
                case .entriesLost(let applied, let latest):
                    notices.append(try Self.lossNotice(applied: applied, latest: latest, stores: stores))
                }
            } catch  where error.kind == .store {
                notices.append(
                    "the search index could not be brought up to date (\(error.message)); searches answer from what is indexed"
                )
            }
        }
        self.notices = notices
    }

    /// What the user is told on opening a journal whose main store lost changes the search store
    /// applied (``IndexStanding/entriesLost(applied:latest:)``).
    private static func lossNotice(applied: Int64, latest: Int64, stores: JournalStores) throws(JournalError) -> String
    {
        let lost = try stores.readBoth(cancellation: nil) { mainDB, searchDB in
            try LostEntries.find(applied: applied, latest: latest, main: mainDB, search: searchDB)
        }
        return "\(stores.directory.mainStoreURL.path): \(lost.summary). \(lossAdvice)"
    }

    /// What to do about entries lost: said wherever the loss is.
    static let lossAdvice =
        "Nothing was changed, the journal takes no write, and the search store keeps what it knows of them until you decide "
        + "(a search's total counts them meanwhile): `journal verify` names them; restore journal.sqlite from a backup, "
        + "or run `journal reindex` to go on without them"

    /// What the main store lost that the search store applied, nil when it lost nothing
    /// (``LostEntries``): the entries' numbers and dates, and the words the search store keeps
    /// of each.
    public func lostEntries() throws(JournalError) -> LostEntries? {
        guard case .entriesLost(let applied, let latest) = try indexer.currentStanding().standing else { return nil }
        return try stores.readBoth(cancellation: nil) { mainDB, searchDB in
            try LostEntries.find(applied: applied, latest: latest, main: mainDB, search: searchDB)
        }
    }

    /// Creates an encrypted journal in `directory` (created when missing, and which must hold no
    /// journal yet), its data key drawn at random and wrapped under `passphrase` with Argon2id at
    /// `cost`, and opens it.
    public static func create(
        in directory: StoreDirectory, passphrase: Passphrase, cost: KeyDerivationCost = .moderate,
        progress: ProgressHandler? = nil
    ) throws(JournalError) -> Journal {
        try Journal(
            JournalStores.createEncrypted(in: directory, passphrase: passphrase, cost: cost), use: .kept,
            progress: progress)
    }

    /// Whether the journal is encrypted at rest.
    public var isEncrypted: Bool { stores.encryption != nil }

    /// How far the search store has applied the entries' change history.
    public func indexStatus() throws(JournalError) -> IndexStatus {
        try Self.indexStatus(main: main, search: search)
    }

    private static func indexStatus(main: MainStore, search: SearchStore) throws(JournalError) -> IndexStatus {
        let (position, standing) = try SearchIndexer(main: main, search: search).currentStanding()
        let (latest, indexing) = try main.read { db in
            (try MainStore.lastChange(in: db), try SearchIndexer.progress(at: position, in: db))
        }
        let applied: Int64
        switch standing {
        case .current: applied = latest
        case .behind:
            applied = position.rebuildFrom == nil && position.resumeAfterEntry == 0 ? position.appliedChange : -1
        case .mustRebuild: applied = -1
        case .entriesLost: applied = position.appliedChange
        }
        return IndexStatus(appliedChange: max(applied, -1), latestChange: latest, indexing: indexing)
    }

    /// The UUID in every entry URI of this journal.
    public var storeID: UUID { main.storeID }

    private var indexer: SearchIndexer { SearchIndexer(main: main, search: search) }

    /// Brings the search store up to the main store's newest change, waiting for another
    /// process that is applying it already: after a write, so that what was written can be
    /// searched at once, and before a check that must see both stores agree.
    private func catchUpThroughLatestChange(
        progress: ProgressHandler? = nil, holding lock: FileLock? = nil, cancellation: Cancellation? = nil,
        wordsAhead: WordsAhead? = nil
    ) throws(JournalError) {
        let latest = try main.lastChange()
        var indexer = self.indexer
        indexer.cancellation = cancellation
        indexer.wordsAhead = wordsAhead
        try indexer.catchUp(progress: progress, holding: lock, waitingFor: latest)
    }

    /// A main-store write done as every writer must, then applied to the search store. The write
    /// prunes the history the search store has applied (the FTS5 peer is kept by triggers in
    /// the same transaction, and the prefix table's file follows the search store's tokens),
    /// and takes the catch-up lock just before its commit: from the commit until its change is
    /// applied, no other process starts applying it (a search would do this writer's work).
    ///
    /// Once the main store has committed, the write has happened: a failure to index it (a
    /// full disk) is not thrown but left for ``indexStatus()`` to show and for the next
    /// command that can write to repair.
    ///
    /// `wordsAhead`, when given, breaks the written entries into words meanwhile (an import's);
    /// the catch-up takes its words when it starts its first batch.
    func write<T>(
        progress: ProgressHandler? = nil, wordsAhead: WordsAhead? = nil,
        _ body: (MainStore.WriteHooks) throws(JournalError) -> T
    ) throws(JournalError) -> T {
        try changing { () throws(JournalError) in try uncheckedWrite(progress: progress, wordsAhead: wordsAhead, body) }
    }

    /// ``write(progress:wordsAhead:_:)`` once ``changing(_:)`` has checked.
    private func uncheckedWrite<T>(
        progress: ProgressHandler?, wordsAhead: WordsAhead?, _ body: (MainStore.WriteHooks) throws(JournalError) -> T
    ) throws(JournalError) -> T {
        let lock = try catchUpLockForWriting()
        let result: T
        do {
            result = try body(MainStore.WriteHooks(pruningThrough: try search.position().appliedChange))
        } catch {
            lock.release()
            throw error
        }
        do {
            try catchUpThroughLatestChange(progress: progress, holding: lock, wordsAhead: wordsAhead)
        } catch  where error.kind == .store {
            lock.release()
        }
        return result
    }

    /// The catch-up lock, taken before a write begins rather than inside its transaction: a
    /// wait for another process applying the history (a search catching up) then holds up
    /// nothing written, and giving up writes nothing. It waits while that process makes
    /// progress, and gives up after ``StoreDatabase/busyTimeout`` without any.
    private func catchUpLockForWriting() throws(JournalError) -> FileLock {
        var lastPosition: SearchStore.Position?
        var lastProgress = ContinuousClock.now
        while true {
            if let lock = try CatchUpLock.tryAcquire(besides: search.url) { return lock }
            let position = try search.position()
            if position != lastPosition { (lastPosition, lastProgress) = (position, .now) }
            guard ContinuousClock.now - lastProgress < .seconds(StoreDatabase.busyTimeout) else {
                throw .store(
                    "\(CatchUpLock.url(besides: search.url).path): another process has been applying changes to the search store for over \(Int(StoreDatabase.busyTimeout)) s without progress; nothing was written"
                )
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Runs `body`, a change of the journal's files, holding the journal's lock (``JournalLock``:
    /// the caller's, or taken here, waiting up to ``StoreDatabase/busyTimeout`` for another
    /// holder), once the journal is found writable. (A store whose file was replaced since it
    /// was opened refuses the write itself: ``StorePool``.)
    ///
    /// While the main store lacks changes the search store applied (``lostEntries()``), nothing
    /// is written but what accepts that loss (`acceptingLoss`: a reindex): a write would give a
    /// lost entry's number to another, and the search store's record of what was lost would go.
    func changing<T>(acceptingLoss: Bool = false, _ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        try checkWritable()
        let lock = try JournalLock.forChange(of: directory)
        defer { lock.release() }
        if !acceptingLoss { try checkNothingLost() }
        return try body()
    }

    /// Throws, saying what was lost, when the main store lacks changes the search store applied.
    func checkNothingLost() throws(JournalError) {
        guard let lost = try lostEntries() else { return }
        let named =
            lost.entries.isEmpty
            ? ""
            : " (\(lost.entries.prefix(5).map { "p\($0.number)" }.joined(separator: ", "))\(lost.entries.count > 5 ? ", …" : ""))"
        throw .store(
            "\(directory.mainStoreURL.path) lost changes the search store applied\(named): nothing was written; `journal verify` names them; restore journal.sqlite from a backup, or run `journal reindex` to go on without them",
            file: main.url.path)
    }

    // MARK: Writing

    /// The entry as the main store takes it, refusing text or tag names no entry may have.
    static func prepare(_ entry: NewEntry) throws(JournalError) -> PreparedEntry {
        try NewEntry.validate(text: entry.text)
        if entry.origin?.isEmpty == true { throw .invalidInput("an origin, when given, may not be empty") }
        return PreparedEntry(
            date: entry.date, text: entry.text, canonical: Fold.canonical(entry.text),
            textTags: Tags.inText(entry.text),
            givenTags: try NewEntry.givenTags(entry.tags), starred: entry.starred, origin: entry.origin)
    }

    /// Adds one entry. An entry with an ``NewEntry/origin`` the journal holds already is
    /// refused.
    @discardableResult
    public func add(_ entry: NewEntry) throws(JournalError) -> Entry {
        let prepared = try Self.prepare(entry)
        let inserted = try write { hooks throws(JournalError) in
            try main.insert(hooks) { insert in try insert(prepared) }
        }
        guard let numbers = inserted.numbers else {
            throw .invalidInput("an entry of origin \(entry.origin ?? "") is in the journal already")
        }
        return try self.entry(EntryID(storeID: storeID, number: numbers.lowerBound))
    }

    /// Changes an entry's text, date, or both. Given the entry as it was read before the change
    /// was made (`basedOn`: the text a user edited), the change is refused with a
    /// ``JournalError/Kind/conflict`` error when the entry's text or date is no longer that
    /// (another process edited it meanwhile), rather than undoing that edit.
    @discardableResult
    public func edit(
        _ id: EntryID, text: String? = nil, date: JournalDate? = nil, basedOn: Entry? = nil
    ) throws(JournalError) -> Entry {
        let id = try local([id])[0]
        return try changing { () throws(JournalError) in
            let current = try entry(id)
            if let basedOn, basedOn.text != current.text || basedOn.date != current.date {
                throw JournalError(
                    .conflict, "\(id.shortName) was changed by another command since it was read", entry: id)
            }
            let prepared = try Self.prepare(NewEntry(date: date ?? current.date, text: text ?? current.text))
            let updated = try write { hooks throws(JournalError) in try main.update(id.number, prepared, hooks) }
            guard updated else { throw Self.notFound(id) }
            return try entry(id)
        }
    }

    /// Deletes an entry from both stores. Its identifier is never used again.
    public func delete(_ id: EntryID) throws(JournalError) {
        guard try delete([id]) == 1 else { throw Self.notFound(id) }
    }

    /// Deletes the entries `ids` from both stores in one write: all of them or, if the write
    /// fails, none. Returns how many there were (an identifier of no entry is passed over).
    @discardableResult
    public func delete(_ ids: [EntryID]) throws(JournalError) -> Int {
        let ids = try local(ids)
        return try write { hooks throws(JournalError) in try main.delete(ids.map(\.number), hooks) }.count
    }

    /// Stars or unstars an entry.
    @discardableResult
    public func setStarred(_ starred: Bool, for id: EntryID) throws(JournalError) -> Entry {
        guard try setStarred(starred, for: [id]) == 1 else { throw Self.notFound(id) }
        return try entry(id)
    }

    /// Stars or unstars the entries `ids` in one write; returns how many there were.
    @discardableResult
    public func setStarred(_ starred: Bool, for ids: [EntryID]) throws(JournalError) -> Int {
        let ids = try local(ids)
        return try changing { () throws(JournalError) in try main.setStarred(ids.map(\.number), starred).count }
    }

    /// Gives an entry the tags `tags` (as a user spells them: `#Café`, `cafe`) besides those
    /// written in its text.
    @discardableResult
    public func addTags(_ tags: [String], to id: EntryID) throws(JournalError) -> Entry {
        try changeTags(of: id, adding: tags, removing: []).entry
    }

    /// Takes the given tags `tags` away from an entry. A tag written in its text stays (only
    /// editing the text removes it): `keptInText` names those.
    @discardableResult
    public func removeTags(
        _ tags: [String], from id: EntryID
    ) throws(JournalError) -> (entry: Entry, keptInText: [String]) {
        try changeTags(of: id, adding: [], removing: tags)
    }

    /// Gives an entry the tags `adding` and takes the given tags `removing` away, in one write.
    /// A tag written in its text stays: `keptInText` names those of `removing`.
    @discardableResult
    public func changeTags(
        of id: EntryID, adding: [String], removing: [String]
    ) throws(JournalError) -> (entry: Entry, keptInText: [String]) {
        guard let kept = try changeTags(of: [id], adding: adding, removing: removing)[id] else {
            throw Self.notFound(id)
        }
        return (try entry(id), kept)
    }

    /// Gives the entries `ids` the tags `adding` and takes the given tags `removing` away, in
    /// one write; for each entry there was, the names of `removing` written in its text (which
    /// stay).
    @discardableResult
    public func changeTags(
        of ids: [EntryID], adding: [String], removing: [String]
    ) throws(JournalError) -> [EntryID: [String]] {
        let here = try local(ids)
        let (add, remove) = (try NewEntry.givenTags(adding), try NewEntry.tagNames(removing))
        let kept = try changing { () throws(JournalError) in
            try main.changeTags(here.map(\.number), add: add, remove: remove)
        }
        let asked = Dictionary(zip(here.map(\.number), ids), uniquingKeysWith: { first, _ in first })
        return Dictionary(uniqueKeysWithValues: kept.compactMap { number, names in asked[number].map { ($0, names) } })
    }

    /// Every tag of the journal with the number of entries that have it, most used first.
    public func tags() throws(JournalError) -> [TagCount] {
        try main.tagCounts().map { TagCount(tag: $0.tag, entries: $0.entries) }
    }

    func checkWritable() throws(JournalError) {
        if let readOnlyReason { throw .store(readOnlyReason, file: directory.url.path) }
    }

    /// Checks, writing nothing, that the journal takes a change now, and throws the error a
    /// write would throw when it doesn't: it can't be written, its main store lost changes
    /// (``lostEntries()``), or an import was interrupted and waits to be run again or abandoned. (An import under way is waited for, as a write waits
    /// for the journal's lock.) For a caller that asks the user for something before writing
    /// (an editor opened), so that what the user gives is not refused afterwards.
    public func checkAcceptsChanges() throws(JournalError) {
        try checkWritable()
        try checkNothingLost()
        if let pending = try pendingImport(), !pending.isUnderWay {
            throw .importPending(pending.interruptedRefusal("nothing can be written"))
        }
    }

    // MARK: Reading

    /// The entry `id`.
    public func entry(_ id: EntryID) throws(JournalError) -> Entry {
        let id = try local([id])[0]
        guard let entry = try main.entries(numbered: [id.number])[id.number] else { throw Self.notFound(id) }
        return entry
    }

    /// Reads an identifier as a user types it: the full URI, `p12`, or `12`. The URI another
    /// journal this one syncs with gave an entry names the entry here too.
    public func entryID(parsing text: String) throws(JournalError) -> EntryID {
        let trimmed = text.trimmingWhiteSpace
        if let id = EntryID(uri: trimmed) { return try local([id])[0] }
        let digits = trimmed.hasPrefix("p") ? trimmed.dropFirst() : Substring(trimmed)
        guard let number = Int64(digits), number > 0, digits.allSatisfy(\.isASCII) else {
            throw .usage("\"\(text)\" is not an entry identifier (expected x-journal://…/Entry/p12, p12 or 12)")
        }
        return EntryID(storeID: storeID, number: number)
    }

    /// Entries newest first.
    public func list(
        _ page: PageRequest = .first, filter: EntryFilter = .none
    ) throws(JournalError) -> (total: Int, entries: [Entry]) {
        try main.newestFirst(page, meeting: plan(SearchQuery(filter: filter), family: .substring).restriction)
    }

    /// Every entry that passes `filter`, oldest first, handed to `body` a batch at a time: for
    /// an export, in bounded memory whatever the journal's size.
    public func forEachEntry(
        filter: EntryFilter = .none, _ body: ([Entry]) throws(JournalError) -> Void
    ) throws(JournalError) {
        try main.forEachOldestFirst(meeting: plan(SearchQuery(filter: filter), family: .substring).restriction, body)
    }

    /// Searches with `strategy`: the exact total and one page of entries, newest first. A query
    /// of filters alone (no text) lists the entries that pass them. `progress` hears about a
    /// structure the strategy builds first (the FTS5 peer).
    public func search(
        _ query: SearchQuery, strategy: SearchStrategy = SearchStrategies.standard, page: PageRequest = .first,
        progress: ProgressHandler? = nil
    ) throws(JournalError) -> SearchResults {
        try search(query, strategy: strategy, page: page, progress: progress, cancellation: nil)
    }

    /// Reads `text` as a query within `filter` (``SearchQuery/init(_:filter:now:timeZone:)``)
    /// and searches it with `strategy`.
    public func search(
        _ text: String, strategy: SearchStrategy = SearchStrategies.standard, page: PageRequest = .first,
        filter: EntryFilter = .none
    ) throws(JournalError) -> SearchResults {
        try search(SearchQuery(text, filter: filter), strategy: strategy, page: page)
    }

    func search(
        _ query: SearchQuery, strategy: SearchStrategy, page: PageRequest, progress: ProgressHandler?,
        cancellation: Cancellation?
    ) throws(JournalError) -> SearchResults {
        try search(
            query, strategy: strategy, page: page, progress: progress, cancellation: cancellation, totalMayFollow: false
        ).results
    }

    /// The search for a caller that can take a page before its total and the total from a
    /// second search (``LiveSearch``): with `totalMayFollow`, a strategy may leave out a count
    /// that would take long, and `totalFollows` then says that `results.total` counts only the
    /// page.
    func search(
        _ query: SearchQuery, strategy: SearchStrategy, page: PageRequest, progress: ProgressHandler?,
        cancellation: Cancellation?, totalMayFollow: Bool
    ) throws(JournalError) -> (results: SearchResults, totalFollows: Bool) {
        try announced { () throws(JournalError) in
            let answer = try answer(
                query, strategy: strategy, page: page, progress: progress, cancellation: cancellation,
                totalMayFollow: totalMayFollow)
            return (
                try results(of: answer, query: query.text ?? "", strategy: strategy.name, page: page),
                answer.totalFollows
            )
        }
    }

    /// `body`, announced as a search of the calling thread (``SearchPresence``).
    private func announced<T>(_ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        guard let presence else { return try body() }
        return try presence.during(body)
    }

    /// `query` planned for `strategy` and answered: one page of entry numbers and the total.
    func answer(
        _ query: SearchQuery, strategy: SearchStrategy, page: PageRequest, progress: ProgressHandler?,
        cancellation: Cancellation?, totalMayFollow: Bool = false
    ) throws(JournalError) -> StrategyAnswer {
        try strategy.validate(query)
        if page.order == .relevance, !strategy.ranksByRelevance {
            let ranking = SearchStrategies.all.filter(\.ranksByRelevance).map(\.name).joined(separator: ", ")
            throw .usage("\(strategy.name) can't rank by relevance: \(ranking) do")
        }
        let plan = try plan(query, family: strategy.family)
        guard query.text != nil else {
            let (total, numbers) = try main.numbers(page, meeting: plan.restriction)
            return StrategyAnswer(total: total, numbers: numbers)
        }
        var context = searchContext(progress: progress, cancellation: cancellation)
        context.totalMayFollow = totalMayFollow
        return try strategy.search(plan, page: page, in: context)
    }

    /// The plan of `query` for a strategy of `family`, with what it needs to know of the
    /// journal: the date of its earliest entry, read only for a query that asks for on this day.
    func plan(_ query: SearchQuery, family: SearchFamily) throws(JournalError) -> SearchPlan {
        try SearchPlan(query, family: family, earliestDate: query.asksOnThisDay ? main.earliestDate() : nil)
    }

    /// Entries whose text as written matches the regular expression `pattern` (ICU syntax),
    /// newest first. An invalid pattern is a usage error saying what is wrong and where.
    public func search(
        regex pattern: String, caseInsensitive: Bool = false, page: PageRequest = .first, filter: EntryFilter = .none
    ) throws(JournalError) -> SearchResults {
        try search(regex: pattern, caseInsensitive: caseInsensitive, page: page, filter: filter, cancellation: nil)
    }

    func search(
        regex pattern: String, caseInsensitive: Bool, page: PageRequest, filter: EntryFilter = .none,
        cancellation: Cancellation?
    ) throws(JournalError) -> SearchResults {
        if page.order == .relevance { throw .usage("a regular expression can't rank by relevance") }
        let matcher = try RegexSearch.matcher(pattern: pattern, caseInsensitive: caseInsensitive)
        return try announced { () throws(JournalError) in
            let restriction = try plan(SearchQuery(filter: filter), family: .substring).restriction
            let (total, numbers) = try main.newestFirst(
                matching: .pattern(matcher, nil), restriction: restriction, page: page, cancellation: cancellation)
            return try results(
                of: StrategyAnswer(total: total, numbers: numbers), query: pattern, strategy: RegexSearch.name,
                page: page)
        }
    }

    /// A strategy's page resolved to entries in one query, in the strategy's order.
    private func results(
        of answer: StrategyAnswer, query: String, strategy: String, page: PageRequest
    ) throws(JournalError) -> SearchResults {
        let (found, indexing) = try main.entries(numbered: answer.numbers) { db in
            try answer.indexed.flatMap { try SearchIndexer.progress(at: $0, in: db) }
        }
        let kept = answer.numbers.indices.filter { found[answer.numbers[$0]] != nil }
        return SearchResults(
            query: query, strategy: strategy, total: answer.total, page: page,
            entries: kept.map { found[answer.numbers[$0]]! },
            scores: answer.scores.map { scores in kept.map { scores[$0] } }, indexing: indexing)
    }

    /// Checks, reading only, that everything derived from the main store agrees with it (see
    /// `journal verify`).
    public func verify(progress: ProgressHandler? = nil) throws(JournalError) -> VerificationReport {
        try verify(progress: progress, cancellation: nil)
    }

    func verify(progress: ProgressHandler?, cancellation: Cancellation?) throws(JournalError) -> VerificationReport {
        if readOnlyReason == nil { try catchUpThroughLatestChange(cancellation: cancellation) }
        return try JournalVerifier(stores: stores, cancellation: cancellation).run(progress: progress)
    }

    /// Rebuilds everything derived from the entries' text: the canonical text where it is
    /// wrong, the search store from scratch, and the FTS5 peer where it is built. When the main
    /// store lost changes the search store applied (``lostEntries()``), this is how the journal
    /// goes on without them: the search store forgets them too, and their numbers are never
    /// given to another entry.
    public func reindex(progress: ProgressHandler? = nil) throws(JournalError) {
        try reindex(progress: progress, cancellation: nil)
    }

    /// Cancelled part way, the repairs made stay and the rest of the rebuild resumes when the
    /// journal is next opened for writing.
    func reindex(progress: ProgressHandler?, cancellation: Cancellation?) throws(JournalError) {
        try changing(acceptingLoss: true) { () throws(JournalError) in
            // Entries the main store lost keep their numbers: their URIs name no other entry.
            if let lost = try lostEntries(), let last = lost.entries.last {
                try main.reserveEntryNumbers(through: last.number)
            }
            try main.repairDerivedColumns(cancellation: cancellation)
            try search.resetForRebuild(from: main)
            try catchUpThroughLatestChange(progress: progress, cancellation: cancellation)
            try cancellation?.check()
            if try FTS5Peer.isBuilt(in: main) { _ = try FTS5Peer.rebuild(in: main) }
            stores.checkpointAfterLargeWrite()
        }
    }

    /// Closes the journal's database connections now, on the calling thread, rather than when
    /// the last reference goes; on the last close of a store, SQLite folds its WAL back into
    /// it. Optional: releasing the journal closes it too. The journal can't be used after.
    public func close() throws(JournalError) {
        try stores.close()
    }

    /// Counts and sizes, for `journal stats`.
    public func statistics() throws(JournalError) -> JournalStatistics {
        JournalStatistics(
            entries: try main.count(),
            indexedEntries: try search.documentCount(),
            tokens: try search.tokenCount(),
            mainStoreBytes: StoreDirectory.fileBytes(directory.mainStoreURL),
            searchStoreBytes: StoreDirectory.fileBytes(directory.searchStoreURL),
            prefixTableBytes: StoreDirectory.fileSize(
                atPath: PrefixSnapshot.fileURL(besides: directory.searchStoreURL).path) ?? 0)
    }

    /// Where the search store's bytes go: each of its tables and indexes, largest first; nil
    /// when SQLite can't tell. It reads every page of the store.
    public func searchStoreTables() throws(JournalError) -> [StoreTableSize]? {
        try search.read { db in StoreTableSize.all(in: db) }
    }

    /// The bytes of the search store's file in none of its tables: pages freed by rows removed,
    /// which later writes reuse.
    public func searchStoreFreeBytes() throws(JournalError) -> Int {
        try search.read(FreePages.bytes(in:))
    }

    /// The tables of the FTS5 index the `fts5` strategy builds in the main store, largest
    /// first, to size the search store against: nil until that strategy has run (or when
    /// SQLite can't tell). It reads every page of the main store.
    public func fts5PeerTables() throws(JournalError) -> [StoreTableSize]? {
        try FTS5Peer.tables(in: main)
    }

    /// Loads what a journal that searches at every keystroke keeps in memory: the prefix table
    /// the standard strategy looks long words up in, and the documents' date order, which
    /// puts matches in order without reading their dates. Until then a search reads from the
    /// stores; from then on the two are kept current.
    package func prepareForTyping() throws(JournalError) {
        try searchContext(progress: nil).readSearch { db in
            try prefixTables.prepare(in: db, searchStore: search)
            try dateOrders.prepare(in: db)
        }
    }

    /// The stores as strategies see them.
    package func searchContext(progress: ProgressHandler?, cancellation: Cancellation? = nil) -> SearchContext {
        SearchContext(
            main: main, search: search, prefixTables: prefixTables, dateOrders: dateOrders, progress: progress,
            cancellation: cancellation)
    }

    private static func notFound(_ id: EntryID) -> JournalError {
        JournalError(.notFound, "no entry \(id.uri)", entry: id)
    }
}

/// A tag and how many entries have it.
public struct TagCount: Sendable, Equatable, Codable {
    /// The tag, in the form the journal shows it in.
    public let tag: Tag
    /// The tag's canonical name.
    public var name: String { tag.name }
    /// Entries that have it, written in their text or given.
    public let entries: Int
}

/// How far the search store has caught up with the entries: every search answers from the
/// changes it has applied.
public struct IndexStatus: Sendable, Equatable, Codable {
    /// The last change of the main store's history that the search store has wholly applied
    /// (-1 while it is being built).
    public let appliedChange: Int64
    /// The main store's newest change.
    public let latestChange: Int64
    /// How far behind the entries the index is, when it is.
    public let indexing: IndexingProgress?
    /// Whether every change is applied: searches see every entry as it is.
    public var isCurrent: Bool { appliedChange >= latestChange }
}

/// Counts and sizes of a journal.
public struct JournalStatistics: Sendable, Equatable, Codable {
    /// Entries in the main store.
    public let entries: Int
    /// Entries the search store holds: equal to `entries` once it has caught up.
    public let indexedEntries: Int
    /// Distinct canonical tokens.
    public let tokens: Int
    /// `journal.sqlite` with its WAL and shared-memory files.
    public let mainStoreBytes: Int
    /// `search.sqlite` with its WAL and shared-memory files.
    public let searchStoreBytes: Int
    /// The prefix table's file, `search.sqlite-prefix` (none until the journal has a thousand
    /// distinct tokens).
    public let prefixTableBytes: Int
}
