import Foundation
import Testing

/// Four processes on one journal at once: two importers and an `add` loop writing while a
/// fourth searches continuously. Every entry written is there afterwards, no command fails
/// (busy waits, WAL and the catch-up's position check do their work), every search saw each
/// import whole or not at all (its 15,000 entries are indexed in two batches), the stores agree, and
/// the search latency during the writing is reported (not asserted: this machine is shared).
@Suite struct ConcurrencyTests {
    /// Results gathered by the looping threads.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(status: Int32, milliseconds: Double, output: String, error: String)] = []

        func record(_ outcome: JournalProcess.Outcome, since start: ContinuousClock.Instant) {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
            lock.withLock { items.append((outcome.status, milliseconds, outcome.output, outcome.error)) }
        }

        var all: [(status: Int32, milliseconds: Double, output: String, error: String)] { lock.withLock { items } }
        var failures: [String] { all.filter { $0.status != 0 }.map { "exit \($0.status): \($0.output)\($0.error)" } }
    }

    /// The totals the searcher saw, and whether each answer said the index was behind.
    final class Totals: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(total: Int, behind: Bool)] = []
        func record(_ total: Int, behind: Bool) { lock.withLock { items.append((total, behind)) } }
        var all: [(total: Int, behind: Bool)] { lock.withLock { items } }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// A thread running `body`, and a way to wait for it.
    final class Worker: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () -> Void) {
            let thread = Thread { [done] in
                body()
                done.signal()
            }
            thread.start()
        }

        func wait() { done.wait() }
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    static func summary(_ values: [Double]) -> String {
        String(
            format: "%d searches, median %.0f ms, p95 %.0f ms, max %.0f ms",
            values.count, percentile(values, 0.5), percentile(values, 0.95), values.max() ?? .nan)
    }

    @Test func twoImportersAnAddLoopAndASearcherLoseNothing() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        #expect(try journal.run(["add", "the first entry"]).status == 0)
        let perImport = 15_000
        let files = try ["importa", "importb"].map { marker in
            try journal.file(
                (1...perImport).map { "{\"text\": \"\(marker) entry \($0) about the weather and the garden\"}" },
                name: "\(marker)-\(UUID())")
        }
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }

        let idle = Log()
        for _ in 0..<10 {
            let start = ContinuousClock.now
            idle.record(try journal.run(["search", "importa", "--limit", "20", "--json"]), since: start)
        }

        let imports = Log(), adds = Log(), searches = Log()
        let importsDone = Flag()
        // Threads of their own: a dispatch queue on two cores would start the loops late.
        let importers = files.map { file in
            Worker {
                let start = ContinuousClock.now
                imports.record(
                    (try? journal.run(["import", file])) ?? .init(status: -1, output: "", error: "not run"),
                    since: start)
            }
        }
        let adder = Worker {
            var index = 0
            while !importsDone.isSet || index < 5 {
                index += 1
                let start = ContinuousClock.now
                adds.record(
                    (try? journal.run(["add", "adder \(index) writes between the imports", "--json"]))
                        ?? .init(status: -1, output: "", error: "not run"), since: start)
            }
        }
        // Each import is one change: a search sees all of it or none, never the part indexed.
        let totals = Totals()
        let searcher = Worker {
            var index = 0
            while !importsDone.isSet {
                let marker = ["importa", "importb"][index % 2]
                index += 1
                let start = ContinuousClock.now
                let outcome =
                    (try? journal.run(["search", marker, "--limit", "20", "--json"]))
                    ?? .init(status: -1, output: "", error: "not run")
                searches.record(outcome, since: start)
                if let answer = try? outcome.json(), let total = answer["total"] as? Int {
                    totals.record(total, behind: !(answer["indexing"] is NSNull))
                }
            }
        }
        for importer in importers { importer.wait() }
        importsDone.set()
        adder.wait()
        searcher.wait()

        #expect(imports.failures == [])
        #expect(adds.failures == [])
        #expect(searches.failures == [])
        #expect(searches.all.count > 0)
        #expect(totals.all.filter { $0.total != 0 && $0.total != perImport }.isEmpty, "\(totals.all)")
        let ids = adds.all.compactMap { add in
            (try? JSONSerialization.jsonObject(with: Data(add.output.utf8))).flatMap { $0 as? [String: Any] }?["id"]
                as? String
        }
        #expect(ids.count == adds.all.count)

        let stats = try journal.run(["stats", "--json"]).json()
        #expect(stats["entries"] as? Int == 1 + 2 * perImport + ids.count)
        #expect(stats["indexed_entries"] as? Int == 1 + 2 * perImport + ids.count)
        for marker in ["importa", "importb"] {
            #expect(try journal.run(["search", marker, "--json"]).json()["total"] as? Int == perImport)
        }
        #expect(try journal.run(["search", "adder", "--json"]).json()["total"] as? Int == ids.count)
        for id in ids { #expect(try journal.run(["show", id]).status == 0) }
        let verified = try journal.run(["verify"])
        #expect(verified.status == 0, "\(verified.output)\(verified.error)")

        print(
            """
            concurrency: 2 imports of \(perImport) entries took \(imports.all.map { String(format: "%.1f s", $0.milliseconds / 1e3) }.joined(separator: ", ")); \
            \(adds.all.count) adds meanwhile, median \(String(format: "%.0f", Self.percentile(adds.all.map(\.milliseconds), 0.5))) ms, max \(String(format: "%.0f", adds.all.map(\.milliseconds).max() ?? 0)) ms
            search latency (journal search the --limit 20, process start to exit), idle: \(Self.summary(idle.all.map(\.milliseconds)))
            search latency during the imports and adds: \(Self.summary(searches.all.map(\.milliseconds)))
            searches that found the index behind (and answered from before an import): \(totals.all.count { $0.behind }) of \(totals.all.count)
            """)
    }
}
