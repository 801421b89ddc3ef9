import Foundation
import OpsMonitor
import OpsWire
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording must be a regular file: a FIFO, a device or a directory is refused at once, in the
/// words a scenario file gets, never waited on or read forever.
struct RecordingFileKindTests {
    static func problem(opening path: String) -> String? {
        do {
            _ = try RecordingReader(path: path)
            return nil
        } catch {
            #expect(error.path == path && error.line == 0)
            return error.problem
        }
    }

    @Test(.timeLimit(.minutes(1))) func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = RecordingTests.temporaryPath("fifo")
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.problem(opening: path) == "is a pipe (FIFO), not a regular file")
    }

    @Test(.timeLimit(.minutes(1))) func aDeviceIsRefusedWithoutReadingIt() {
        #expect(Self.problem(opening: "/dev/zero") == "is a character device, not a regular file")
    }

    @Test func aDirectoryIsRefusedInOneLine() {
        #expect(Self.problem(opening: FileManager.default.temporaryDirectory.path) == "is a directory, not a file")
    }

    @Test func aMissingFileIsNamedSo() {
        #expect(Self.problem(opening: "/nonexistent/rec.jsonl") == "no such file")
    }
}
