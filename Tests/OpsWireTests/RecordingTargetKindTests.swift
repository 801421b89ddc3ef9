import Foundation
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// `--record FILE` writes only regular files: a pipe would block the run until someone reads
/// it, a device would swallow or refuse the recording.
@Suite(.timeLimit(.minutes(1))) struct RecordingTargetKindTests {
    @Test func aPipeIsRefusedAtOnceInsteadOfWaitedOn() throws {
        let path = RecordingTests.temporaryPath("fifo")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: RecordingError(path: path, line: 0, problem: "is a pipe (FIFO), not a regular file")) {
            _ = try RecordingWriter(path: path, header: RecordingTests.header)
        }
    }

    @Test func aDirectoryIsRefused() throws {
        let path = RecordingTests.temporaryPath("dir")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: RecordingError(path: path, line: 0, problem: "is a directory, not a file")) {
            _ = try RecordingWriter(path: path, header: RecordingTests.header)
        }
    }
}
