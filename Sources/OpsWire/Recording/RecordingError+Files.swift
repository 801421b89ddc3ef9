import Foundation
import OpsKit
import OpsMonitor

extension RecordingError {
    /// `path` exists and is not a regular file (a pipe, device or directory: a recording is
    /// never written to one, nor waited on); nil otherwise.
    public static func notRegularFile(_ path: String) -> RecordingError? {
        RegularFile.writeProblem(path).map { RecordingError(path: path, line: 0, problem: $0) }
    }

    /// `path` exists and was not to be replaced (`RecordingWriter`'s `replacing: false`).
    package static func alreadyExists(_ path: String) -> RecordingError {
        RecordingError(path: path, line: 0, problem: "already exists")
    }

    /// `path` could not be created or opened for writing, for the reason `code` (an `errno`).
    public static func cannotCreate(_ path: String, code: Int32) -> RecordingError {
        RecordingError(path: path, line: 0, problem: "cannot create: \(String(cString: strerror(code)))")
    }
}
