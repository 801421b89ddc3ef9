import Foundation
import Testing

@testable import OpsDashTerminal

/// The stray-output log: private, never following or replacing what is there, gone when empty.
@Suite struct StrayOutputLogTests {
    private func makeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-log-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    private func entries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func anEmptyLogLeavesNothingBehind() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try #require(StrayOutputLog(directory: directory, pid: 42))
        #if os(Linux)
        #expect(try entries(directory) == [], "unnamed while open: a crash leaves nothing")
        #endif
        #expect(log.close() == nil)
        #expect(try entries(directory) == [])
    }

    @Test func whatWasWrittenIsKeptPrivate() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try #require(StrayOutputLog(directory: directory, pid: 42))
        let text = Array("warning: something\n".utf8)
        #expect(text.withUnsafeBytes { write(log.descriptor, $0.baseAddress, $0.count) } == text.count)
        let kept = try #require(log.close())
        #expect(kept == directory + "/opsdash-42.log")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "warning: something\n")
        let mode = try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func anExistingFileOrSymlinkIsNeitherFollowedNorReplaced() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/victim"
        try FileManager.default.createSymbolicLink(atPath: directory + "/opsdash-42.log", withDestinationPath: target)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/opsdash-42-1.log"))
        let log = try #require(StrayOutputLog(directory: directory, pid: 42))
        let text = Array("stray".utf8)
        #expect(text.withUnsafeBytes { write(log.descriptor, $0.baseAddress, $0.count) } == text.count)
        #expect(log.close() == directory + "/opsdash-42-2.log")
        #expect(!FileManager.default.fileExists(atPath: target), "the symlink was followed")
        #expect(try String(contentsOfFile: directory + "/opsdash-42-1.log", encoding: .utf8) == "mine")
        #expect(try String(contentsOfFile: directory + "/opsdash-42-2.log", encoding: .utf8) == "stray")
    }
}
