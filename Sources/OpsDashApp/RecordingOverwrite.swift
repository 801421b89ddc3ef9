import OpsMonitor
import OpsWire

/// `--record FILE` never replaces an existing file unless `--overwrite` says so: a recording of
/// a past run is not lost to a repeated command line.
enum RecordingOverwrite {
    /// The error for an existing `path` without `--overwrite`, naming the flag.
    static func refusal(_ path: String) -> RecordingError {
        RecordingError(path: path, line: 0, problem: "already exists (add --overwrite to replace it)")
    }

    /// `error`, naming `--overwrite` when the problem is that the file exists.
    static func explained(_ error: RecordingError) -> RecordingError {
        error == .alreadyExists(error.path) ? refusal(error.path) : error
    }
}
