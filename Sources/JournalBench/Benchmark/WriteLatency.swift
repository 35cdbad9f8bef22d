import Foundation
import JournalKit

/// How long a single `add` takes on a journal: what a user waits for after writing an entry,
/// durability included (the main store's commit reaches stable storage before `add` returns).
///
/// Timed two ways, each on the journal as the benchmark left it: the library's
/// ``Journal/add(_:)`` in this process, and whole `journal add` processes while this process
/// keeps the journal open (as a full-screen search or an editor plugin would), so that the
/// child is never the last connection and its close checkpoints nothing.
public struct WriteLatency: Sendable {
    /// `Journal.add` in this process: commit, its sync, and the search store's catch-up.
    public let inProcess: LatencySummary
    /// Whole `journal add TEXT` processes: start-up, open, add, close.
    public let process: LatencySummary

    /// Adds `count` entries each way to `journal` (whose folder `store` is), each with a word
    /// no other entry has, so the vocabulary grows as it does when a person writes.
    public static func measure(journal: Journal, store: URL, executable: String, count: Int) throws -> WriteLatency {
        let run = UInt32.random(in: 0...UInt32.max)
        func text(_ index: Int, _ way: String) -> String {
            "Wrote this \(way) entry after the benchmark, new word w\(run)x\(index)."
        }
        var inProcess: [Double] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            try journal.add(NewEntry(text: text(index, "library")))
            inProcess.append(secondsSince(start))
        }
        var process: [Double] = []
        for index in 0..<count {
            let outcome = try ChildProcess.run(
                executable, ["--store", store.path, "add", text(count + index, "command")])
            guard outcome.status == 0 else {
                throw JournalError(.store, "journal add failed (exit status \(outcome.status))")
            }
            process.append(outcome.seconds)
        }
        return WriteLatency(inProcess: LatencySummary(inProcess), process: LatencySummary(process))
    }
}
