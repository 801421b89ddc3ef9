import Foundation
import Testing

@testable import OpsDashApp
@_spi(OpsDashInternals) @testable import OpsKitViewer
import OpsMonitor

/// `attach --record FILE` when nothing gets attached: a file it created goes away, a file that
/// was there before stays exactly as it was.
@Suite struct AttachRecorderTests {
    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-attach-rec-\(UUID().uuidString)").path
    }

    @Test func anExistingFileIsRefusedWithoutOverwrite() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RecordingOverwrite.refusal(path)) { _ = try AttachRecorder(path: path) }
        #expect("\(RecordingOverwrite.refusal(path))" == "\(path): already exists (add --overwrite to replace it)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
    }

    @Test func aCreatedFileIsReadableByItsOwnerOnly() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        let recorder = try AttachRecorder(path: path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600)
        recorder.finish()
    }

    @Test func anExistingFileIsNeitherTruncatedNorRemovedWhenNothingWasAttached() throws {
        let path = Self.temporaryPath()
        defer { unlink(path) }
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        let recorder = try AttachRecorder(path: path, overwrite: true)
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

/// When the app restarts, the recording stops with the picture so far as its last keyframe.
@Suite struct AttachRecorderRestartTests {
    @Test func aRestartedAppEndsTheRecordingWithAKeyframe() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-restart-\(UUID().uuidString)")
            .path
        defer { unlink(path) }
        let recorder = try AttachRecorder(path: path)
        func welcome(_ epoch: String) -> ViewerCore.Output {
            .welcome(
                ViewerCore.Welcome(
                    app: "app", queue: "q", pid: 1, role: .observer, epoch: epoch, protocolVersion: 1,
                    sharedStream: nil))
        }
        let picture = QueueSnapshot(
            time: .seconds(1), counts: StateCounts(ready: 1),
            operations: ChunkedArray([OperationSnapshot(id: 1, name: "a")]))
        recorder.record([welcome("first"), .keyframe(previous: nil, current: picture)])
        recorder.record([
            .event(.state(time: .seconds(2), id: 1, from: .ready, to: .executing, outcome: nil, message: nil))
        ])
        recorder.record([welcome("second")])
        recorder.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.hasPrefix(#"{"event":"snapshot_end""#) == true, "\(lines.suffix(3))")
        let lastOperation = lines.last { $0.contains(#""event":"snapshot_op""#) }
        #expect(
            lastOperation?.contains(#""state":"executing""#) == true, "the keyframe holds the picture at the restart")
    }
}
