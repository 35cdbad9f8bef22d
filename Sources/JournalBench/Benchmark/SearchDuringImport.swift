import Foundation
import GRDB
import JournalKit

/// Searches in other processes while an import adds entries, beside FTS5 in its best setup doing
/// the same: how much slower a search gets while a large write goes on, and whether any answer
/// is part of the import.
///
/// The journal's side: a copy of the benchmark's journal, `journal import` of new entries
/// (``addedEntries``, generated with another seed) as a separate process, and meanwhile
/// `journal search QUERY --limit 20 --json` processes one after another round the queries,
/// each total compared with the totals before and after the import. FTS5's side: a copy of its
/// best setup in WAL mode (as its users would run it beside readers), a writer inserting the
/// same entries' text in one transaction, and `sqlite3` processes answering the same queries
/// (count and newest 20). Idle latencies are the same processes before the writing starts
/// (``idleRounds`` times round the queries). A search counts as during the write when it
/// started before the write ended: the last ones, which meet the write's closing checkpoints,
/// are the ones most likely to wait.
///
/// Then each side writes the same entries again with nothing else running (`journal import
/// --keep-duplicates`, the same insert): how fast a large journal takes an import, against
/// FTS5's insert. Both then write into a journal a quarter larger than the benchmark's.
public struct SearchDuringImport: Sendable {
    /// How one side fared.
    public struct Side: Sendable {
        /// The write, from its start to its end, under the searches.
        public let writeSeconds: Double
        /// The same write again, after the first, with no searches running.
        public let aloneSeconds: Double
        /// Search processes before the write.
        public let idle: LatencySummary
        /// Search processes during it.
        public let during: LatencySummary
        /// Answers whose total was neither the one before the import nor the one after it.
        public let partial: Int
        /// Answers that said the index was behind (and answered from before the import).
        public let behind: Int
    }

    /// Entries the import added.
    public let addedEntries: Int
    /// The journal: `journal import` and `journal search` processes.
    public let journal: Side
    /// FTS5 in its best setup: one transaction and `sqlite3` processes, when sqlite3 is installed.
    public let fts5: Side?

    /// Times round the queries before the write: with few rounds, the p95 of the idle searches
    /// is one of their few slowest, and a few searches decide the ratio of the p95s.
    static let idleRounds = 10

    /// Entries added: a quarter of the journal, at most 50,000.
    static func addedEntries(to entries: Int) -> Int { max(1, min(50_000, entries / 4)) }

    /// Measures both sides on copies of `store` (which holds FTS5's best setup at `fts5File`),
    /// in `scratch`, adding `input`'s entries, searching `queries` (those FTS5 can answer).
    static func measure(
        store: URL, fts5File: URL, input: URL, added: Int, queries: [String], executable: String, scratch: URL,
        progress: (String) -> Void
    ) throws -> SearchDuringImport {
        let copy = scratch.appendingPathComponent("during-import")
        try? FileManager.default.removeItem(at: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let journalCopy = copy.appendingPathComponent("journal")
        let fts5Copy = copy.appendingPathComponent("fts5.sqlite")
        // Copied by another process: this one has the journal open, and closing a descriptor of
        // a file drops every POSIX lock its process holds on it, SQLite's among them; every
        // search process after would then take itself for the journal's first reader and
        // rebuild the WAL's index.
        for (from, to) in [(store, journalCopy), (fts5File, fts5Copy)] {
            guard try ChildProcess.run("/bin/cp", ["-R", from.path, to.path]).status == 0 else {
                throw JournalError(.store, "cannot copy \(from.path) to \(to.path)")
            }
        }
        // Without the FTS5 peer, which the benchmark built in the main store to measure it and
        // whose triggers would make the journal's import index everything twice (a user who
        // never searches with it has none). Its WALs folded back in, as the last process to close
        // an idle journal leaves them (a search process would otherwise rebuild the index of a
        // long WAL on opening).
        for file in ["journal.sqlite", "search.sqlite"] {
            let queue = try DatabaseQueue(path: journalCopy.appendingPathComponent(file).path)
            if file == "journal.sqlite" { try queue.write { db in try db.execute(sql: FTS5Peer.dropSQL) } }
            _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            try queue.close()
        }
        let sqlite3 = ChildProcess.find("sqlite3")
        let words = queries.filter {
            BenchmarkRun.sqlite3Arguments(database: fts5Copy, query: $0, statements: []) != nil
        }
        guard !words.isEmpty else { throw JournalError(.invalidInput, "no query both sides can answer") }

        progress("searches during an import of \(added) entries (journal search processes)…")
        let journal = try measureJournal(
            store: journalCopy, input: input, words: words, executable: executable)
        var fts5: Side?
        if let sqlite3 {
            progress("searches during the same entries' insert into FTS5 (sqlite3 processes)…")
            fts5 = try measureFTS5(database: fts5Copy, input: input, words: words, sqlite3: sqlite3)
        }
        return SearchDuringImport(addedEntries: added, journal: journal, fts5: fts5)
    }

    /// One `journal search` process: its total, whether it said the index was behind, its time.
    private static func search(
        _ query: String, store: URL, executable: String
    ) throws -> (total: Int, behind: Bool, seconds: Double) {
        let outcome = try ChildProcess.run(
            executable, ["--store", store.path, "search", "--limit", "20", "--json", "--", query], captureOutput: true)
        guard outcome.status == 0,
            let answer = try? JSONSerialization.jsonObject(with: outcome.output) as? [String: Any],
            let total = answer["total"] as? Int
        else {
            throw JournalError(.store, "journal search \(query) failed (exit status \(outcome.status))")
        }
        return (total, !(answer["indexing"] is NSNull), outcome.seconds)
    }

    private static func measureJournal(
        store: URL, input: URL, words: [String], executable: String
    ) throws -> Side {
        let before = try words.map { try search($0, store: store, executable: executable).total }
        let idle = try (0..<idleRounds).flatMap { _ in
            try words.map { try search($0, store: store, executable: executable).seconds }
        }
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: executable)
        importer.arguments = ["--store", store.path, "import", input.path]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try importer.run()
        var seen: [(word: Int, total: Int)] = []
        var during: [Double] = []
        var behind = 0
        var index = 0
        while importer.isRunning {
            let word = index % words.count
            index += 1
            let answer = try search(words[word], store: store, executable: executable)
            seen.append((word, answer.total))
            during.append(answer.seconds)
            if answer.behind { behind += 1 }
        }
        importer.waitUntilExit()
        let writeSeconds = secondsSince(start)
        guard importer.terminationStatus == 0 else {
            throw JournalError(.store, "journal import failed (exit status \(importer.terminationStatus))")
        }
        let after = try words.map { try search($0, store: store, executable: executable).total }
        let partial = seen.count { $0.total != before[$0.word] && $0.total != after[$0.word] }
        let alone = try ChildProcess.run(
            executable, ["--store", store.path, "import", "--keep-duplicates", input.path], captureOutput: true)
        guard alone.status == 0 else {
            throw JournalError(.store, "journal import --keep-duplicates failed (exit status \(alone.status))")
        }
        return Side(
            writeSeconds: writeSeconds, aloneSeconds: alone.seconds, idle: LatencySummary(idle),
            during: LatencySummary(during), partial: partial, behind: behind)
    }

    /// Flag raised by FTS5's writer thread when its transaction has committed.
    private final class Finished: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds: Double?
        private var failure: (any Error)?
        func finish(_ seconds: Double) { lock.withLock { self.seconds = seconds } }
        func fail(_ error: any Error) { lock.withLock { failure = error } }
        var state: (seconds: Double?, failure: (any Error)?) { lock.withLock { (seconds, failure) } }
    }

    private static func measureFTS5(database: URL, input: URL, words: [String], sqlite3: String) throws -> Side {
        let queue = try DatabaseQueue(path: database.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        let rows = try entries(in: input)
        func search(_ word: String) throws -> (total: Int, seconds: Double) {
            let arguments = BenchmarkRun.sqlite3Arguments(
                database: database, query: word,
                statements: [FTS5BestSetup.countSQL + ";", FTS5BestSetup.pageSQL + ";"])!
            let errors = database.appendingPathExtension("sqlite3-errors")
            defer { try? FileManager.default.removeItem(at: errors) }
            let outcome = try ChildProcess.run(sqlite3, arguments, captureOutput: true, errorFile: errors)
            guard outcome.status == 0 else {
                let said = (try? String(contentsOf: errors, encoding: .utf8))?.split(separator: "\n").last.map {
                    ": \($0)"
                }
                throw JournalError(
                    .store, "sqlite3 on FTS5 for \(word) failed (exit status \(outcome.status))\(said ?? "")")
            }
            let total = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").first.flatMap { Int($0) }
            return (total ?? -1, outcome.seconds)
        }
        let before = try words.map { try search($0).total }
        let idle = try (0..<idleRounds).flatMap { _ in try words.map { try search($0).seconds } }
        let finished = Finished()
        let writer = queue
        let thread = Thread {
            let start = ContinuousClock.now
            do {
                try insert(rows, into: writer)
                finished.finish(secondsSince(start))
            } catch {
                finished.fail(error)
            }
        }
        thread.start()
        var seen: [(word: Int, total: Int)] = []
        var during: [Double] = []
        var index = 0
        while finished.state.seconds == nil && finished.state.failure == nil {
            let word = index % words.count
            index += 1
            let answer = try search(words[word])
            seen.append((word, answer.total))
            during.append(answer.seconds)
        }
        if let failure = finished.state.failure { throw failure }
        let after = try words.map { try search($0).total }
        let start = ContinuousClock.now
        try insert(rows, into: queue)
        let alone = secondsSince(start)
        try queue.close()
        let partial = seen.count { $0.total != before[$0.word] && $0.total != after[$0.word] }
        return Side(
            writeSeconds: finished.state.seconds ?? 0, aloneSeconds: alone, idle: LatencySummary(idle),
            during: LatencySummary(during), partial: partial, behind: 0)
    }

    /// FTS5's writer: the entries in one transaction, oldest first.
    private static func insert(_ rows: [(text: String, date: Int64)], into queue: DatabaseQueue) throws {
        try queue.inTransaction { db in
            let insert = try db.makeStatement(sql: "INSERT INTO journal (text, date, starred) VALUES (?, ?, 0)")
            for row in rows { try insert.execute(arguments: [row.text, row.date]) }
            return .commit
        }
    }

    /// The text and date (microseconds) of each entry of a JSON Lines file.
    private static func entries(in input: URL) throws -> [(text: String, date: Int64)] {
        let reader = try JSONLinesReader(path: input.path)
        var rows: [(text: String, date: Int64)] = []
        while let batch = try reader.nextBatch(targetBytes: 4 << 20, maxLines: 4_096) {
            for line in batch {
                let entry = try ImportLine.parse(line, defaultDate: .now).get()
                rows.append((entry.text, entry.date.microseconds))
            }
        }
        return rows
    }
}
