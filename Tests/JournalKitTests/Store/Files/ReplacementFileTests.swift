import Foundation
import Testing

@testable import JournalKit

@Suite struct ReplacementFileTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replacement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aCommittedFileReplacesTheOldOneWhole() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.txt")
        try Data("old".utf8).write(to: url)
        let file = try ReplacementFile(replacing: url)
        try file.write(Data("....new".utf8))
        try Data("head".utf8).withUnsafeBytes { try file.write($0, at: 0) }
        #expect(try Data(contentsOf: url) == Data("old".utf8), "the old file stays until the commit")
        try file.commit()
        #expect(try Data(contentsOf: url) == Data("headnew".utf8))
        #expect(try names(in: folder) == ["out.txt"])
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: JournalError.self) { try file.write(Data("late".utf8)) }
    }

    @Test func aFileNeverCommittedLeavesTheOldOneAndNoTrace() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.txt")
        try Data("old".utf8).write(to: url)
        do {
            let file = try ReplacementFile(replacing: url)
            try file.write(Data("half".utf8))
        }
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        #expect(try names(in: folder) == ["out.txt"])
    }

    @Test func aFolderThatCantBeWrittenIsOneLine() throws {
        let error = #expect(throws: JournalError.self) {
            try ReplacementFile(replacing: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.txt"))
        }
        #expect(error?.message.contains("No such file or directory") == true, "\(error?.message ?? "")")
    }

    @Test func foldersAreCreatedOwnerOnlyWithTheirParents() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let deep = root.appendingPathComponent("a/b/journal")
        try DurableFiles.createFolder(deep)
        for path in ["a", "a/b", "a/b/journal"] {
            let mode =
                try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
        try DurableFiles.createFolder(deep)  // already there: nothing to do
    }
}
