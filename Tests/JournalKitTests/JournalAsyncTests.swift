import Foundation
import GRDB
import Testing

@testable import JournalKit

/// The async forms: the same answers as the blocking calls, and cancellation that stops the
/// work and leaves nothing half-written.
@Suite struct JournalAsyncTests {
    @Test func asyncCallsGiveTheSameAnswersAsBlockingOnes() async throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let entry = try await journal.add(NewEntry(text: "Thé Crème BRÛLÉE"))
        let found = try await journal.search("bru cre")
        #expect(
            found
                == (try store.journal.search(
                    SearchQuery("bru cre"), strategy: SearchStrategies.standard, page: .first, progress: nil)))
        #expect(found.entries.map(\.id) == [entry.id])
        #expect(try await journal.search("crème", strategy: SearchStrategies[.containsN]).total == 1)
        #expect(try await journal.list().total == 1)
        try await journal.edit(entry.id, text: "nothing sweet")
        #expect(try await journal.search("sweet").total == 1)
        #expect(try await journal.verify().isConsistent)
        try await journal.reindex()
        try await journal.delete(entry.id)
        #expect(try await journal.list().total == 0)
        try store.expectConsistent()
    }

    @Test func asyncActionsAndCountsOnASet() async throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let first = try await journal.add(
            NewEntry(date: JournalDate(iso8601: "2023-05-01T10:00:00Z")!, text: "walk #Rain"))
        let second = try await journal.add(
            NewEntry(date: JournalDate(iso8601: "2024-05-01T10:00:00Z")!, text: "walk again"))
        #expect(try await journal.setStarred(true, for: [first.id, second.id]) == 2)
        #expect(
            try await journal.changeTags(of: [first.id, second.id], adding: ["Park"], removing: ["rain"]) == [
                first.id: ["rain"], second.id: [],
            ])
        #expect(
            try await journal.tags(SearchQuery("walk")).map { "\($0.tag.written) \($0.entries)" } == [
                "Park 2", "Rain 1",
            ])
        let utc = TimeZone(identifier: "UTC")!
        #expect(try await journal.entryCounts(by: .year, SearchQuery("walk"), timeZone: utc).map(\.entries) == [1, 1])
        #expect(try await journal.delete([first.id, second.id, first.id]) == 2)
        #expect(try await journal.list().total == 0)
        try store.expectConsistent()
    }

    @Test func aCancelledImportWritesNothing() async throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        try await journal.add(NewEntry(text: "written before"))
        let file = store.directory.url.appendingPathComponent("big.jsonl")
        let lines = (0..<30_000).map { #"{"text": "line \#($0) of the import"}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let canceller = TaskCanceller()
        let task = Task { () async throws -> ImportSummary in
            let reader = try JSONLinesReader(path: file.path)
            // Cancelled once the first batch is in the transaction: the next one sees it.
            return try await journal.importJSONLines(from: reader) { progress in
                if progress.phase == .importing { canceller.cancel() }
            }
        }
        canceller.watch(task)
        let outcome = await task.result
        #expect(canceller.cancelled)
        #expect(throws: JournalError(.cancelled, JournalError.cancelled.message)) { try outcome.get() }
        #expect(try await journal.list(PageRequest(limit: 0)).entries.map(\.text) == ["written before"])
        try store.expectConsistent()
    }

    @Test func aCancelledTaskStartsNoWork() async throws {
        let store = try TemporaryJournal()
        let journal: Journal = store.journal
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await journal.add(NewEntry(text: "never written"))
        }
        await #expect(throws: JournalError.cancelled) { try await task.value }
        #expect(try await journal.list().total == 0)
    }

    /// What stops a long scan: SQLite's progress handler, checking the flag while a statement
    /// runs. The statement here would count for minutes.
    @Test func cancellationInterruptsAStatementThatIsRunning() throws {
        let store = try TemporaryJournal()
        let cancellation = Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { cancellation.cancel() }
        let context = store.journal.searchContext(progress: nil, cancellation: cancellation)
        #expect(throws: JournalError.cancelled) {
            try context.readMain { db in
                try Int.fetchOne(
                    db,
                    sql:
                        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 10000000000) SELECT count(*) FROM n"
                )
            }
        }
        // The connections are usable afterwards: the handler is gone.
        let uncancelled = store.journal.searchContext(progress: nil)
        for _ in 0..<4 { #expect(try uncancelled.readMain { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1) }
    }

    @Test func everyStrategyReadsThroughTheCancellableContext() throws {
        let store = try TemporaryJournal()
        try store.journal.add(NewEntry(text: "café au lait"))
        let cancellation = Cancellation()
        cancellation.cancel()
        for strategy in SearchStrategies.all {
            #expect(throws: JournalError.cancelled, "\(strategy.name)") {
                try store.journal.search(
                    SearchQuery("cafe"), strategy: strategy, page: .first, progress: nil, cancellation: cancellation)
            }
        }
    }
}

/// Cancels a task from inside the work it awaits (a progress handler), whichever comes first:
/// the request or the task.
private final class TaskCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<ImportSummary, any Error>?
    private(set) var cancelled = false

    func watch(_ task: Task<ImportSummary, any Error>) {
        lock.withLock {
            self.task = task
            if cancelled { task.cancel() }
        }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            task?.cancel()
        }
    }
}
