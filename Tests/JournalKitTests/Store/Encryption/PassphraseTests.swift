import Foundation
import Testing

@testable import JournalKit

/// A passphrase read from a file, a command's output or the terminal: its first line, read
/// straight into guarded memory; an empty one or one too long refused; what follows a command's
/// first line read and dropped, so that the command never blocks on a full pipe.
@Suite struct PassphraseTests {
    /// A pipe holding `bytes`, then closed for writing (written on a thread of its own, since
    /// a pipe holds only so much).
    private func pipe(_ bytes: [UInt8]) -> Int32 {
        var ends: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&ends) == 0)
        let writer = ends[1]
        Thread {
            var left = bytes[...]
            while !left.isEmpty {
                let count = left.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                left = left.dropFirst(count)
            }
            close(writer)
        }.start()
        return ends[0]
    }

    @Test func theFirstLineIsThePassphrase() throws {
        for (input, expected) in [
            ("correct horse\nsecond line\n", "correct horse"), ("no line break", "no line break"),
            ("crlf\r\n", "crlf"), ("ünïcødé 🐴\n", "ünïcødé 🐴"),
        ] {
            let descriptor = pipe(Array(input.utf8))
            defer { close(descriptor) }
            #expect(try Passphrase.firstLine(of: descriptor).matches(Passphrase(expected)), "\(input)")
        }
    }

    @Test func anEmptyOrTooLongLineIsRefused() throws {
        for input in ["\nafter", "", String(repeating: "x", count: Passphrase.maximumBytes + 1)] {
            let descriptor = pipe(Array(input.utf8))
            defer { close(descriptor) }
            #expect(throws: JournalError.self, "\(input.prefix(10))") { try Passphrase.firstLine(of: descriptor) }
        }
        let longest = pipe(Array(String(repeating: "y", count: Passphrase.maximumBytes).utf8))
        defer { close(longest) }
        #expect(try Passphrase.firstLine(of: longest).matches(Passphrase(String(repeating: "y", count: 4_096))))
    }

    /// A command that prints more than a pipe holds after its first line: all of it read.
    @Test func whatFollowsIsReadAndDropped() throws {
        let descriptor = pipe(Array(("the passphrase\n" + String(repeating: "more output ", count: 100_000)).utf8))
        defer { close(descriptor) }
        #expect(try Passphrase.firstLine(of: descriptor, drainingRest: true).matches(Passphrase("the passphrase")))
        var byte: UInt8 = 0
        #expect(read(descriptor, &byte, 1) == 0, "the pipe was read to its end")
        #expect(try !Passphrase("a").matches(Passphrase("b")))
        #expect(try !Passphrase("a").matches(Passphrase("aa")))
    }
}
