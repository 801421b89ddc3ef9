import Foundation
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// A recording holds what the publisher's 0600 socket protects: it is written with mode 0600
/// (whatever the umask), and an existing file is replaced only when asked.
@Suite struct RecordingFileModeTests {
    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    @Test func aNewRecordingIsReadableByItsOwnerOnly() throws {
        let path = RecordingTests.temporaryPath("mode")
        defer { unlink(path) }
        let writer = try RecordingWriter(path: path, header: RecordingTests.header)
        writer.close()
        #expect(Self.mode(path) == 0o600)
    }

    @Test func aReplacedFileIsMadeOwnerOnlyToo() throws {
        let path = RecordingTests.temporaryPath("mode-replaced")
        defer { unlink(path) }
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let writer = try RecordingWriter(path: path, header: RecordingTests.header, replacing: true)
        writer.close()
        #expect(Self.mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(#"{"event":"recording""#))
    }

    @Test func withoutReplacingAnExistingFileIsRefusedAndKept() throws {
        let path = RecordingTests.temporaryPath("exists")
        defer { unlink(path) }
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RecordingError.alreadyExists(path)) {
            _ = try RecordingWriter(path: path, header: RecordingTests.header, replacing: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        #expect(RecordingError.alreadyExists(path).description == "\(path): already exists")
    }
}
