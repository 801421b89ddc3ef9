import Foundation
import OpsKit
import OpsMonitor

/// Opens a recording for reading: only a regular file, never waiting (`RegularFile`), so a FIFO,
/// a device such as `/dev/zero` or a directory is refused at once with one line, in the words a
/// scenario file gets.
enum RecordingFile {
    /// A handle on `path`, or the problem as a `RecordingError` for the whole file.
    static func open(_ path: String) throws(RecordingError) -> FileHandle {
        do {
            return FileHandle(fileDescriptor: try RegularFile.open(path: path).descriptor, closeOnDealloc: true)
        } catch {
            throw RecordingError(path: path, line: 0, problem: error.problem(notFound: "no such file"))
        }
    }
}
