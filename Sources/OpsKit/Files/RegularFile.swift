#if canImport(Glibc)
import Glibc

private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin

private let systemClose = Darwin.close
#endif

/// Opens a file for reading only if it is a regular file, without ever waiting: the open is
/// non-blocking (a FIFO with no writer cannot hang it) and `fstat` then refuses a directory,
/// pipe, device or socket with a one-line reason. Scenario files and recordings both open
/// through it, so they refuse the same things in the same words.
package enum RegularFile {
    /// Why a path could not be opened as a regular file.
    package enum Failure: Error, Equatable {
        /// `open` or `fstat` failed with this `errno` (e.g. `ENOENT`, `EACCES`).
        case cannotOpen(Int32)
        /// It is not a regular file; the reason, e.g. "is a pipe (FIFO), not a regular file".
        case notRegular(String)

        /// The failure in words; `notFound` is how the caller says `ENOENT`.
        package func problem(notFound: String) -> String {
            switch self {
            case .cannotOpen(let code):
                switch code {
                case ENOENT, ENOTDIR: notFound
                case EACCES, EPERM: "cannot read file: permission denied"
                case ELOOP: "cannot read file: too many symbolic links"
                default: RegularFile.readProblem(code)
                }
            case .notRegular(let reason): reason
            }
        }
    }

    /// Opens `path` read-only (close-on-exec, non-blocking), refusing what is not a regular file
    /// before reading any of it; returns the descriptor, which the caller closes, and the size.
    package static func open(path: String) throws(Failure) -> (descriptor: Int32, size: Int) {
        let fd = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = systemClose(fd)
            throw .cannotOpen(code)
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            _ = systemClose(fd)
            throw .notRegular(typeProblem(type))
        }
        return (fd, Int(info.st_size))
    }

    /// "cannot read file: <strerror>", or "is a directory, not a file" for `EISDIR`.
    package static func readProblem(_ code: Int32) -> String {
        if code == EISDIR { return "is a directory, not a file" }
        return "cannot read file: " + String(cString: strerror(code))
    }

    /// Why `path` cannot be written as a file: nil if it does not exist yet or is a regular
    /// file, else what it is ("is a pipe (FIFO), not a regular file"). A pipe would block the
    /// writer until someone reads it, a device would swallow or refuse what is written.
    package static func writeProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        return type == S_IFREG ? nil : typeProblem(type)
    }

    /// What a file of type `type` (`st_mode & S_IFMT`) is, when it is not a regular file.
    static func typeProblem(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "is a directory, not a file"
        case S_IFIFO: "is a pipe (FIFO), not a regular file"
        case S_IFCHR: "is a character device, not a regular file"
        case S_IFBLK: "is a block device, not a regular file"
        case S_IFSOCK: "is a socket, not a regular file"
        default: "is not a regular file"
        }
    }
}

/// `open(2)` with two arguments (Swift sees the C function's variadic third one as overloads).
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}
