import Foundation
import JournalKit

// Opens, uses and releases journals on many threads at once, for `ReleaseStressTests`, which
// runs it under glibc's heap checking (and `scripts/stress` under valgrind): every journal is
// released without `close()`, some by another thread than the one that used it, while one
// thread keeps printing large results.
//
// Usage: ReleaseStress ITERATIONS THREADS FOLDER

let arguments = CommandLine.arguments
guard arguments.count == 4, let iterations = Int(arguments[1]), let threads = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: ReleaseStress ITERATIONS THREADS FOLDER\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[3])

/// A journal handed from the thread that used it to another that releases it.
final class Handover: @unchecked Sendable {
    private let condition = NSCondition()
    private var journals: [Journal] = []
    private var finished = false

    func put(_ journal: Journal) {
        condition.withLock {
            journals.append(journal)
            condition.signal()
        }
    }

    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Takes journals and drops them until every worker has finished.
    func releaseAll() -> Int {
        var released = 0
        condition.lock()
        defer { condition.unlock() }
        while true {
            while journals.isEmpty && !finished { condition.wait() }
            if journals.isEmpty { return released }
            journals.removeAll()
            released += 1
        }
    }
}

let words = ["café", "crème", "brûlée", "東京", "タワー", "straße", "istanbul", "walk", "the", "rain", "notes", "garden"]
@Sendable func text(_ seed: Int, words count: Int) -> String {
    (0..<count).map { words[($0 &* 7 &+ seed) % words.count] + "\($0 % 13)" }.joined(separator: " ")
}
let large = text(1, words: 40_000)  // about 300 KB
let strategies = SearchStrategies.all.filter { $0.id != .fts5 }
let handover = Handover()
let failures = Counter()
let operations = Counter()

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add(_ amount: Int = 1) { lock.withLock { value += amount } }
    var count: Int { lock.withLock { value } }
}

let printer = Thread {
    // Prints a large result over and over while the workers release journals.
    let sink = FileHandle(forWritingAtPath: "/dev/null")!
    while handover.isRunning {
        sink.write(Data(large.utf8))
        print(large.prefix(1_000), to: &NullStream.shared)
    }
}

struct NullStream: TextOutputStream {
    nonisolated(unsafe) static var shared = NullStream()
    mutating func write(_ string: String) { _ = string.utf8.count }
}

extension Handover {
    var isRunning: Bool { condition.withLock { !finished } }
}

printer.start()
let releaser = Thread { _ = handover.releaseAll() }
releaser.start()

DispatchQueue.concurrentPerform(iterations: threads) { worker in
    for iteration in 0..<iterations {
        // Half the workers share one journal folder (other processes' writes seen through the
        // change history), half have their own.
        let store = folder.appendingPathComponent(worker % 2 == 0 ? "shared" : "own-\(worker)")
        do {
            let journal = try Journal(directory: StoreDirectory(store))
            let seed = worker * 1_000_003 + iteration
            switch seed % 5 {
            case 0: try journal.add(NewEntry(text: iteration % 25 == 0 ? large : text(seed, words: 40)))
            case 1:
                let lines = (0..<50).map { #"{"text": "\#(text(seed + $0, words: 12))"}"# }.joined(separator: "\n")
                let file = folder.appendingPathComponent("import-\(worker)-\(iteration).jsonl")
                try Data(lines.utf8).write(to: file)
                _ = try journal.importJSONLines(from: JSONLinesReader(path: file.path))
                try? FileManager.default.removeItem(at: file)
            case 2: _ = try journal.list(PageRequest(limit: 5))
            default:
                let strategy = strategies[seed % strategies.count]
                _ = try journal.search(words[seed % words.count], strategy: strategy, page: PageRequest(limit: 3))
            }
            operations.add()
            // Released here, by a worker of the dispatch pool, or by the releasing thread.
            if iteration % 3 == 0 { handover.put(journal) }
        } catch {
            failures.add()
            FileHandle.standardError.write(Data("worker \(worker), iteration \(iteration): \(error)\n".utf8))
        }
    }
}
handover.finish()
while releaser.isExecuting || printer.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
print("\(operations.count) operations, \(failures.count) failures, \(threads) threads × \(iterations) iterations")
exit(failures.count == 0 ? 0 : 1)
