import Foundation
import Testing

@testable import OpsDashApp

/// `attach --record FILE` when nothing gets attached: a file it created goes away, a file that
/// was there before stays exactly as it was.
@Suite struct AttachRecorderTests {
    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-attach-rec-\(UUID().uuidString)").path
    }

    @Test func anExistingFileIsNeitherTruncatedNorRemovedWhenNothingWasAttached() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        let recorder = try AttachRecorder(path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n", "not truncated before attaching")
        recorder.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
    }

    @Test func aFileItCreatedIsRemovedWhenNothingWasAttached() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        let recorder = try AttachRecorder(path: path)
        #expect(FileManager.default.fileExists(atPath: path), "created up front, so a bad path fails before connecting")
        recorder.finish()
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
