import Foundation
import JournalKit
import Testing

/// Every command that writes has synced what it wrote before it prints success:
/// traced with strace, as a user would check it, with standard output line-buffered as on a
/// terminal (so a line is out when it is printed), with and without another process keeping
/// the journal open (then closing the command's connections folds nothing back into the
/// store, and only the commit's own sync makes the write durable).
@Suite(.serialized) struct DurableWriteTests {
    /// The main store's files a traced line writes to or syncs: `-y` prints each descriptor's
    /// path after it (`pwrite64(15</j/journal.sqlite-wal>, …`).
    static func mainStoreFile(in line: Substring) -> String? {
        guard let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">") else { return nil }
        let path = line[line.index(after: open)..<close]
        return path.hasSuffix("/journal.sqlite") || path.hasSuffix("/journal.sqlite-wal") ? String(path) : nil
    }

    /// The main store's files written and not yet synced when the command first wrote to
    /// standard output, from an `strace -f -y` log; nil when it printed nothing.
    static func unsyncedAtFirstOutput(_ trace: String) -> Set<String>? {
        var dirty = Set<String>()
        for line in trace.split(separator: "\n") {
            guard let call = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first else {
                continue
            }
            if call.hasPrefix("write(1<") { return dirty }
            guard let file = mainStoreFile(in: call.hasPrefix("<...") ? "" : line) else { continue }
            if call.hasPrefix("pwrite64(") || call.hasPrefix("write(") || call.hasPrefix("ftruncate(") {
                dirty.insert(file)
            } else if call.hasPrefix("fsync(") || call.hasPrefix("fdatasync(") {
                dirty.remove(file)
            }
        }
        return nil
    }

    @Test func theParserSeesAWriteLeftUnsynced() {
        let trace = """
            7 pwrite64(15</j/journal.sqlite-wal>, "x", 1, 0) = 1
            7 fdatasync(15</j/journal.sqlite-wal>) = 0
            7 pwrite64(15</j/journal.sqlite-wal>, "y", 1, 1) = 1
            7 pwrite64(9</j/search.sqlite-wal>, "z", 1, 0) = 1
            7 write(1</tmp/out>, "added p1\\n", 9) = 9
            """
        #expect(Self.unsyncedAtFirstOutput(trace) == ["/j/journal.sqlite-wal"])
        #expect(Self.unsyncedAtFirstOutput("7 pwrite64(15</j/journal.sqlite>, \"x\", 1, 0) = 1\n") == nil)
    }

    /// `export -o` reports its file once the file is synced, renamed into place and its folder
    /// synced, in that order.
    @Test func anExportIsSyncedRenamedAndItsFolderSyncedBeforeItIsReported() throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for index in 1...3 { #expect(try journal.run(["add", "Entry number \(index)"]).status == 0) }
        let folder = journal.store.appendingPathExtension("export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("backup.jsonl")
        let trace = journal.store.appendingPathExtension("trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let strace = ["strace", "-f", "-y", "-qq", "-e", "trace=write,fsync,fdatasync,rename", "-o", trace.path]
        let run = try journal.run(["export", "-o", output.path], launcher: ["/usr/bin/env"] + strace)
        try #require(run.status == 0, "\(run.error)")
        let lines = String(decoding: try JournalProcess.contents(of: trace), as: UTF8.self).split(separator: "\n")
        func first(after start: Int, _ matches: (Substring) -> Bool) -> Int? {
            lines.indices.first { $0 > start && matches(lines[$0]) }
        }
        let isSync = { (line: Substring) in line.contains(" fsync(") || line.contains(" fdatasync(") }
        let synced = first(after: -1) { isSync($0) && $0.contains(".backup.jsonl.partial-") }
        let renamed = synced.flatMap { synced in
            first(after: synced) { $0.contains(" rename(") && $0.contains("backup.jsonl\")") }
        }
        let folderSynced = renamed.flatMap { renamed in
            first(after: renamed) { isSync($0) && $0.contains("<\(folder.path)>") }
        }
        let reported = folderSynced.flatMap { synced in
            first(after: synced) { $0.contains(" write(2<") && $0.contains("exported") }
        }
        #expect(
            reported != nil,
            "sync \(synced.map(String.init) ?? "–"), rename \(renamed.map(String.init) ?? "–"), folder \(folderSynced.map(String.init) ?? "–")"
        )
        #expect(try JournalProcess.contents(of: output).count > 0)
    }

    @Test(arguments: [false, true]) func everyWriteIsSyncedBeforeItIsReported(held: Bool) throws {
        let journal = JournalProcess()
        defer { journal.removeStore() }
        for index in 1...5 { #expect(try journal.run(["add", "Entry number \(index)"]).status == 0) }
        let input = try journal.file([#"{"text": "imported one"}"#, #"{"text": "imported two"}"#])
        let holder = held ? try Journal(directory: StoreDirectory(journal.store), create: false) : nil
        defer { try? holder?.close() }
        let commands = [
            ["add", "A new entry"], ["import", input], ["edit", "p2", "--text", "Edited"], ["tag", "p3", "travel"],
            ["untag", "p3", "travel"], ["star", "p4"], ["unstar", "p4"], ["delete", "p5"], ["reindex"],
        ]
        let trace = journal.store.appendingPathExtension("trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        for command in commands {
            let strace = [
                "strace", "-f", "-y", "-qq", "-e", "trace=write,pwrite64,ftruncate,fsync,fdatasync", "-o", trace.path,
            ]
            let run = try journal.run(command, launcher: ["/usr/bin/env"] + strace + ["stdbuf", "-oL"])
            try #require(run.status == 0, "\(command): \(run.error)")
            let unsynced = Self.unsyncedAtFirstOutput(
                String(decoding: try JournalProcess.contents(of: trace), as: UTF8.self))
            #expect(unsynced != nil, "\(command) printed nothing")
            #expect(
                unsynced?.isEmpty == true,
                "\(command)\(held ? ", journal held open" : ""): unsynced before success: \(unsynced ?? [])")
        }
    }
}
