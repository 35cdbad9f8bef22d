import ArgumentParser
import Foundation
import JournalBench
import JournalKit

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic journal as JSON Lines, for trying journal at scale and benchmarking.",
        discussion: """
            Entries of 40–250 words in English, French, German, Spanish, Japanese, Russian and \
            Chinese, words drawn with Zipf's law from each language's common words and a long \
            tail of made-up rarer ones, and from an open vocabulary that keeps adding words as \
            the journal grows, as real text does (Heaps' law: about 194,000 distinct tokens at \
            200,000 entries), with numbers; one entry in fifty is backdated by up to thirty days. \
            The same --seed always gives the same journal:
              journal generate --entries 100000 > big.jsonl && journal import big.jsonl
            """)

    @Option(help: "How many entries (1 to 100,000,000).")
    var entries: Int

    @Option(help: "The seed: the same seed, the same journal.")
    var seed: UInt64 = 2013

    @OptionGroup var output: OutputFileOptions

    func validate() throws {
        guard (1...100_000_000).contains(entries) else {
            throw ValidationError("--entries must be from 1 to 100,000,000")
        }
    }

    func run() throws {
        let sink: FileHandle
        if let output = output.destination.path {
            guard FileManager.default.createFile(atPath: output, contents: nil),
                let handle = FileHandle(forWritingAtPath: output)
            else {
                throw JournalError(.invalidInput, "cannot write \(output)")
            }
            sink = handle
        } else {
            sink = FileHandle.standardOutput
        }
        let bar = ProgressBar(label: "generating")
        try SyntheticJournalFile.write(entries: entries, seed: seed, to: sink) { bar.update(done: $0, total: entries) }
        bar.finish()
        if output.destination.path != nil { try sink.close() }
    }
}
