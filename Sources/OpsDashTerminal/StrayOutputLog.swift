#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTerminalRestore

/// The file that receives stdout and stderr while the dashboard has the screen.
///
/// On Linux it is created unnamed (`O_TMPFILE`, mode 0600) in `directory`: nobody else can
/// open, replace or redirect it, and if the process ends without giving it a name (nothing was
/// written, or it was killed) nothing is left behind. `close()` names it `opsdash-<pid>.log`
/// only when something was written; so does a crash (the crash handler in `CTerminalRestore`).
/// Naming uses `linkat`, which never follows or replaces an existing file or symlink; a taken
/// name gets a `-1`, `-2`, … suffix. Where `O_TMPFILE` is missing (macOS, some file systems)
/// the file is created named, exclusively and without following symlinks (`O_EXCL |
/// O_NOFOLLOW`, 0600), and removed at `close()` when empty; only a crash can leave it there.
final class StrayOutputLog {
    /// The open file (write-only).
    let descriptor: Int32
    private let directory: String
    private let baseName: String
    /// Where the fallback file already has its name; nil for an unnamed file.
    private let namedPath: String?
    private var closed = false

    /// Creates the file in `directory`; nil (changing nothing) if it can't be created.
    init?(directory: String, pid: Int32 = getpid()) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        baseName = "opsdash-\(pid)"
        let unnamed = opsdash_open_unnamed_file(self.directory)
        if unnamed >= 0 {
            descriptor = unnamed
            namedPath = nil
            _ = opsdash_keep_output_on_crash(
                descriptor, "/proc/self/fd/\(descriptor)", Self.candidate(self.directory, baseName, 0))
            return
        }
        var made: (Int32, String)?
        for attempt in 0..<10 {
            let path = Self.candidate(self.directory, baseName, attempt)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                made = (fd, path)
                break
            }
            if errno != EEXIST { break }
        }
        guard let made else { return nil }
        descriptor = made.0
        namedPath = made.1
    }

    deinit { _ = close() }

    /// Closes the file; returns its path if anything was written to it (it stays), nil if it
    /// was empty (it is gone). Idempotent: later calls return nil.
    @discardableResult
    func close() -> String? {
        guard !closed else { return nil }
        closed = true
        var status = stat()
        let written = fstat(descriptor, &status) == 0 && status.st_size > 0
        var kept: String?
        if let namedPath {
            if written { kept = namedPath } else { unlink(namedPath) }
        } else if written {
            for attempt in 0..<10 {
                let path = Self.candidate(directory, baseName, attempt)
                if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
                    kept = path
                    break
                }
                if errno != EEXIST { break }
            }
        }
        _ = closeDescriptor(descriptor)
        return kept
    }

    private static func candidate(_ directory: String, _ base: String, _ attempt: Int) -> String {
        "\(directory)/\(base)\(attempt == 0 ? "" : "-\(attempt)").log"
    }
}
