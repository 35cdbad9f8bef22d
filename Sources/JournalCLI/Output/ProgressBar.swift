import Foundation
import JournalKit
import TextReport

/// A one-line progress bar on standard error, drawn only when it is a terminal, at most ten
/// times a second, and erased when the work is done.
final class ProgressBar: @unchecked Sendable {
    enum Unit { case entries, bytes }

    private let label: String
    private let unit: Unit
    private let terminal = Terminal.standardError
    private let lock = NSLock()
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    init(label: String, unit: Unit = .entries) {
        self.label = label
        self.unit = unit
    }

    var handler: ProgressHandler { { [self] in update($0) } }

    func update(_ progress: JournalProgress) { update(done: progress.done, total: progress.total) }

    func update(done: Int, total: Int?) {
        guard terminal.isTerminal else { return }
        lock.lock()
        defer { lock.unlock() }
        if let lastDraw, secondsSince(lastDraw) < 0.1 { return }
        lastDraw = ContinuousClock.now
        drawn = true
        terminal.write("\r\u{1B}[2K" + line(done: done, total: total))
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { terminal.write("\r\u{1B}[2K") }
        drawn = false
    }

    private func line(done: Int, total: Int?) -> String {
        let amount = { (value: Int) in self.unit == .bytes ? Formatting.bytes(value) : Formatting.grouped(value) }
        guard let total, total > 0 else { return "\(label) \(amount(done))" }
        let fraction = min(1, Double(done) / Double(total))
        let cells = 30
        let filled = Int(fraction * Double(cells))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        return "\(label) \(bar) \(Int(fraction * 100))%  \(amount(done)) / \(amount(total))"
    }
}
